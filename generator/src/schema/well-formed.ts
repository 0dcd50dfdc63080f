// A UTF-16 surrogate without its partner.
const loneSurrogate =
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `s` with every lone surrogate replaced by U+FFFD. Text enters the model
 * through here, so that every target's escaping helper can assume
 * well-formed text and all targets carry the same characters. (Text decoded
 * from a CodeGeneratorRequest is well-formed already: invalid UTF-8 comes
 * out of the decoder as U+FFFD.)
 */
export function wellFormed(s: string): string {
  return s.replace(loneSurrogate, "\ufffd");
}
