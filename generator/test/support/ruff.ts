/**
 * `ruff check` arguments for generated Python, the rule set the tests hold
 * ai_tools_gen.py and ai_tools_mcp_gen.py to: pycodestyle, pyflakes,
 * isort, bugbear, pyupgrade, ruff's own, naming, docstrings and simplify,
 * with no user configuration. E501 is ignored because a string literal is
 * never split (ruff format does not either): a long description or schema
 * exceeds any line length. Followed by the files to check.
 */
export const ruffCheckArgs: readonly string[] = [
  "-m",
  "ruff",
  "check",
  "--isolated",
  "--no-cache",
  "--select",
  "E,F,W,I,B,UP,RUF,N,D,SIM",
  "--ignore",
  "E501,D203,D213",
  "--target-version",
  "py311",
];
