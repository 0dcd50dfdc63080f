// The security suite (issue 33) against the go HTTP server.
import { describeSecurity } from "./security-suite.js";

describeSecurity("go");
