// What the checks read from the shared test server (@protoc-gen-ai-tools/e2e-server,
// run as its own process): its links and page themes, and the requests it
// recorded.
import {
  LinkService,
  PageThemeService,
  TestControlService,
} from "@protoc-gen-ai-tools/e2e-server";
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";

/** Clients of the server's links, themes and recordings. */
export interface ServerData {
  readonly links: Client<typeof LinkService>;
  readonly themes: Client<typeof PageThemeService>;
  readonly control: Client<typeof TestControlService>;
}

/** Clients of the test server at address (host:port). */
export function serverData(address: string): ServerData {
  const transport = createGrpcTransport({ baseUrl: `http://${address}` });
  return {
    links: createClient(LinkService, transport),
    themes: createClient(PageThemeService, transport),
    control: createClient(TestControlService, transport),
  };
}
