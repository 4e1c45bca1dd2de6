import { describe, expect, it } from "vitest";
import { splitAtHost } from "./url";

describe("splitAtHost", () => {
  it("finds the host case-insensitively, keeping the URL's own spelling", () => {
    expect(splitAtHost("https://Example.COM:8443/a?b#c", ["example.com"])).toEqual({
      before: "https://",
      host: "Example.COM",
      after: ":8443/a?b#c",
    });
  });

  it("looks past user info, not at it", () => {
    expect(splitAtHost("https://bank.com@evil.test/login", ["evil.test"])).toEqual({
      before: "https://bank.com@",
      host: "evil.test",
      after: "/login",
    });
    expect(splitAtHost("https://evil.test@evil.test/", ["evil.test"])?.before).toBe("https://evil.test@");
  });

  it("does not point at the host's name elsewhere in the URL", () => {
    expect(splitAtHost("https://%65vil.test/?next=evil.test", ["evil.test"])).toBeNull();
    expect(splitAtHost("mailto:evil.test", ["evil.test"])).toBeNull();
    expect(splitAtHost("https://x.test/", [""])).toBeNull();
  });

  it("tries the next form of the host when the first is not there", () => {
    expect(splitAtHost("https://bücher.example/", ["xn--bcher-kva.example", "bücher.example"])?.host).toBe(
      "bücher.example",
    );
  });
});
