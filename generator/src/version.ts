/** The plugin's version, as `protoc-gen-ai-tools --version` prints it. */
export const version = "0.1.0";
