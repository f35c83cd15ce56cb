import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { escapeXml } from "./junit.js";

describe("escapeXml", () => {
  it.each([
    {
      name: "markup characters",
      text: `<a href="x">Tom & 'Jerry'</a>`,
      escaped: "&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;",
    },
    { name: "line breaks and tabs, kept in attributes", text: "a\tb\r\nc", escaped: "a&#9;b&#13;&#10;c" },
    { name: "C0 controls", text: "bell\u0007 nul\u0000", escaped: "bell\uFFFD nul\uFFFD" },
    { name: "a lone surrogate", text: "x\uD800y", escaped: "x\uFFFDy" },
    { name: "U+FFFE", text: "\uFFFE", escaped: "\uFFFD" },
    { name: "astral characters, kept", text: "😀 𝔸", escaped: "😀 𝔸" },
    { name: "plain text", text: "coverage 0.5", escaped: "coverage 0.5" },
  ])("$name", ({ text, escaped }) => {
    expect(escapeXml(text)).toBe(escaped);
  });

  it("round-trips through an XML parser in an attribute and in content", () => {
    const text = `<q> & "d" 's' \t end`;
    const parsed = // htmlEntities: fast-xml-parser decodes numeric character references only with it.
      new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", htmlEntities: true }).parse(
        `<r a="${escapeXml(text)}">${escapeXml(text)}</r>`,
      );
    expect(parsed.r).toEqual({ a: text, "#text": text });
  });
});
