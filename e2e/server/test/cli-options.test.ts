import { describe, expect, it } from "vitest";
import { parseCliOptions } from "../src/cli-options.js";

describe("parseCliOptions", () => {
  it("defaults to port 0", () => {
    expect(parseCliOptions([])).toEqual({ port: 0 });
  });

  it("reads --port N and --port=N", () => {
    expect(parseCliOptions(["--port", "8080"])).toEqual({ port: 8080 });
    expect(parseCliOptions(["--port=65535"])).toEqual({ port: 65535 });
  });

  it("reads --tls-cert FILE and --tls-key=FILE", () => {
    expect(
      parseCliOptions(["--tls-cert", "c.pem", "--tls-key=k.pem", "--port=1"]),
    ).toEqual({ port: 1, tlsCert: "c.pem", tlsKey: "k.pem" });
  });

  it("reads --reflection VERSIONS", () => {
    expect(parseCliOptions(["--reflection", "v1,v1alpha"])).toEqual({
      port: 0,
      reflection: ["v1", "v1alpha"],
    });
    expect(parseCliOptions(["--reflection=v1alpha"])).toEqual({
      port: 0,
      reflection: ["v1alpha"],
    });
  });

  it.each([
    [
      ["--reflection", "v2"],
      'invalid reflection version "v2" in "--reflection": want v1, v1alpha or v1,v1alpha',
    ],
    [["--port"], 'missing value for "--port"'],
    [["--port", "x"], 'invalid port "x": want an integer from 0 to 65535'],
    [["--port=70000"], 'invalid port "70000": want an integer from 0 to 65535'],
    [["--port=-1"], 'invalid port "-1": want an integer from 0 to 65535'],
    [["--verbose"], 'unknown argument "--verbose"'],
    [["--tls-cert"], 'missing value for "--tls-cert"'],
    [
      ["--tls-cert", "c.pem"],
      '"--tls-cert" and "--tls-key" go together: give both files, or neither for cleartext',
    ],
    [
      ["--tls-key=k.pem"],
      '"--tls-cert" and "--tls-key" go together: give both files, or neither for cleartext',
    ],
  ])("refuses %j", (args, message) => {
    expect(() => parseCliOptions(args)).toThrow(message);
  });
});
