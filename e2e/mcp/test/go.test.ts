// The generated Go MCP server of the test API with every client.
import { describeLanguage } from "./language-suite.js";

describeLanguage("go");
