/**
 * Whether this is the nightly workflow's run (AI_TOOLS_NIGHTLY=1, which
 * `bash scripts/nightly.sh <suite>` sets): the long suites run at full size
 * there, and `.ci/run` runs the same checks on a smaller input as a smoke
 * (docs/testing.md, "What CI runs and what nightly runs").
 */
export const nightly = process.env["AI_TOOLS_NIGHTLY"] === "1";
