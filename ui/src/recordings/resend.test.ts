import { describe, expect, it } from "vitest";
import { withFreshId } from "./ResendDialog";

describe("withFreshId", () => {
  it("gives a request a new id and keeps it on one line", () => {
    const text = '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo"}}';
    expect(withFreshId(text, "resend-1")).toBe('{"jsonrpc":"2.0","id":"resend-1","method":"tools/call","params":{"name":"echo"}}');
  });

  it("leaves what is not a JSON request as it was", () => {
    expect(withFreshId("not json", "x")).toBe("not json");
    expect(withFreshId('{"jsonrpc":"2.0","method":"n"}', "x")).toBe('{"jsonrpc":"2.0","method":"n"}');
    expect(withFreshId("[1,2]", "x")).toBe("[1,2]");
  });
});
