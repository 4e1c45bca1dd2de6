import { describe, expect, it } from "vitest";
import { encodeValue, expandTemplate, parseTemplate, templateVariables, TemplateError } from "./uriTemplate";

// Values from RFC 6570 section 3.2.
const V = { var: "value", hello: "Hello World!", path: "/foo/bar", x: "1024", y: "768", half: "50%" };

describe("URI templates", () => {
  it("names the variables of every kind of expression, once, in order", () => {
    expect(templateVariables("demo://items/{category}/{id}")).toEqual([
      { name: "category", operator: "" },
      { name: "id", operator: "" },
    ]);
    expect(templateVariables("file://{+root}{/dir*}{?q,page}{&lang}{#frag}{.ext}{;p:3}{?q}")).toEqual([
      { name: "root", operator: "+" },
      { name: "dir", operator: "/" },
      { name: "q", operator: "?" },
      { name: "page", operator: "?" },
      { name: "lang", operator: "&" },
      { name: "frag", operator: "#" },
      { name: "ext", operator: "." },
      { name: "p", operator: ";" },
    ]);
  });

  it("parses prefixes, explode and literals", () => {
    expect(parseTemplate("a{var:3}b{list*}")).toEqual([
      { literal: "a" },
      { operator: "", variables: [{ name: "var", prefix: 3, explode: false }] },
      { literal: "b" },
      { operator: "", variables: [{ name: "list", prefix: null, explode: true }] },
    ]);
  });

  it("refuses malformed templates, saying where", () => {
    expect(() => parseTemplate("demo://{id")).toThrow(TemplateError);
    expect(() => parseTemplate("demo://{id")).toThrow("not closed");
    expect(() => parseTemplate("demo://id}")).toThrow("closes no expression");
    expect(() => parseTemplate("{}")).toThrow("names no variable");
    expect(() => parseTemplate("{=x}")).toThrow("reserved");
    expect(() => parseTemplate("{a b}")).toThrow("not a variable name");
    expect(() => parseTemplate("{x:0}")).toThrow("prefix");
    expect(() => parseTemplate("{a{b}")).toThrow("not closed");
  });

  it("expands the RFC 6570 examples", () => {
    const cases: Array<[string, string]> = [
      ["{var}", "value"],
      ["{hello}", "Hello%20World%21"],
      ["{half}", "50%25"],
      ["{+var}", "value"],
      ["{+hello}", "Hello%20World!"],
      ["{+half}", "50%25"],
      ["{+path}/here", "/foo/bar/here"],
      ["here?ref={+path}", "here?ref=/foo/bar"],
      ["map?{x,y}", "map?1024,768"],
      ["{x,hello,y}", "1024,Hello%20World%21,768"],
      ["{+x,hello,y}", "1024,Hello%20World!,768"],
      ["{#x,hello,y}", "#1024,Hello%20World!,768"],
      ["{#path:6}/here", "#/foo/b/here"],
      ["X{.var}", "X.value"],
      ["X{.x,y}", "X.1024.768"],
      ["{/var}", "/value"],
      ["{/var,x}/here", "/value/1024/here"],
      ["{;x,y}", ";x=1024;y=768"],
      ["{?x,y}", "?x=1024&y=768"],
      ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
      ["{var:3}", "val"],
      ["{var:30}", "value"],
      ["{/var:1,var}", "/v/value"],
    ];
    for (const [template, expected] of cases) expect(expandTemplate(template, V), template).toBe(expected);
  });

  it("leaves out empty and missing values", () => {
    expect(expandTemplate("demo://items/{category}/{id}", { category: "games" })).toBe("demo://items/games/");
    expect(expandTemplate("search{?q,page,lang}", { q: "rust", page: "" })).toBe("search?q=rust");
    expect(expandTemplate("x{?q}", {})).toBe("x");
  });

  it("encodes UTF-8 and keeps existing percent-escapes only where reserved characters are allowed", () => {
    expect(encodeValue("café", false)).toBe("caf%C3%A9");
    expect(encodeValue("a/b c", false)).toBe("a%2Fb%20c");
    expect(encodeValue("a/b%20c", true)).toBe("a/b%20c");
    expect(encodeValue("100%", true)).toBe("100%25");
    expect(expandTemplate("demo://items/{category}/{id}", { category: "sci fi", id: "7" })).toBe(
      "demo://items/sci%20fi/7",
    );
  });
});
