// The security suite (issue 33) against the ts HTTP server.
import { describeSecurity } from "./security-suite.js";

describeSecurity("ts");
