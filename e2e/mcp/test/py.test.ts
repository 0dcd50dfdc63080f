// The generated Python MCP server of the test API with every client.
import { describeLanguage } from "./language-suite.js";

describeLanguage("py");
