/**
 * `text` as one flat string. Text built by concatenation is a tree of
 * pieces (a rope) in V8, and each piece lives as long as the text does:
 * a long-lived text built of thousands of pieces (a tool's schema, its
 * TypeScript layout) keeps them all through every garbage collection, as
 * survivors to copy. Converting a string to a number flattens it first;
 * the number is not used. The bundler keeps the call (a call of a global
 * may have effects for all it knows).
 */
export function flatString(text: string): string {
  void Number(text);
  return text;
}
