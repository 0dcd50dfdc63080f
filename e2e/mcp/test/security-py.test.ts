// The security suite (issue 33) against the py HTTP server.
import { describeSecurity } from "./security-suite.js";

describeSecurity("py");
