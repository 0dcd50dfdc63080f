import { invalidArgumentError } from "./errors.js";

/**
 * Throws INVALID_ARGUMENT (FieldViolation on `field`) unless `value` is an
 * absolute http or https URL with a host.
 */
export function requireHttpUrl(field: string, value: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.hostname === ""
  ) {
    throw invalidArgumentError(
      field,
      `${field} ${JSON.stringify(value)} is not an absolute http(s) URL`,
    );
  }
}

const hexColor = /^#[0-9a-fA-F]{6}$/;

/**
 * Throws INVALID_ARGUMENT (FieldViolation on `field`) unless `value` is empty
 * or a color written as `#RRGGBB`.
 */
export function requireHexColor(field: string, value: string): void {
  if (value !== "" && !hexColor.test(value)) {
    throw invalidArgumentError(
      field,
      `${field} ${JSON.stringify(value)} is not a color of the form #RRGGBB`,
    );
  }
}
