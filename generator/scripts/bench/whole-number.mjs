/**
 * The whole number an option's text spells, at least `min`; otherwise
 * `fail` is called with what the option wants and the text quoted (each
 * script prefixes and exits its own way).
 * @param {string} option the option's name, without `--`
 * @param {string} text
 * @param {number} min
 * @param {(message: string) => never} fail
 * @returns {number}
 */
export function wholeNumber(option, text, min, fail) {
  if (!/^\d+$/.test(text) || Number(text) < min) {
    fail(
      `--${option} wants a whole number from ${min}, got ${JSON.stringify(text)}`,
    );
  }
  return Number(text);
}
