/**
 * Every relative link of the hand-written pages resolves: README.md, CONTRIBUTING.md,
 * bench/README.md and docs/*.md. A link's file (or folder) must exist, and its `#anchor` must be a
 * heading of the page it points to, slugged as GitHub slugs headings. Links inside code are not
 * links; addresses with a scheme (https:, mailto:) are not checked.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/dist.js";

/** The page's text with fenced code blocks and inline code spans blanked out. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/(`+)[^`\n]*?\1/g, "");
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Every anchor a page has: its headings' slugs, a repeated one with -1, -2 and so on. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const [, text] of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(text ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The relative links of `file` (a path under `root`) that do not resolve, each with why. */
function brokenLinks(root: string, file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const problems: string[] = [];
  for (const [, target] of prose(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [path = "", anchor] = target.split("#", 2);
    const resolved = path === "" ? join(root, file) : join(root, dirname(file), decodeURI(path));
    if (!existsSync(resolved)) {
      problems.push(`${file}: ${target}: no such file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (statSync(resolved).isDirectory() || !resolved.endsWith(".md")) {
      problems.push(`${file}: ${target}: an anchor into a file that is not a markdown page`);
    } else if (!anchorsOf(readFileSync(resolved, "utf8")).has(decodeURIComponent(anchor))) {
      problems.push(`${file}: ${target}: no heading #${anchor} in ${relative(root, resolved)}`);
    }
  }
  return problems;
}

const PAGES = [
  "README.md",
  "CONTRIBUTING.md",
  "bench/README.md",
  ...readdirSync(join(REPO_ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

describe("relative links of the hand-written pages", () => {
  it.each(PAGES)("%s: every link and anchor resolves", (page) => {
    expect(brokenLinks(REPO_ROOT, page)).toEqual([]);
  });

  it("are checked: a missing file, a missing heading and a link in code are told apart", () => {
    const dir = mkdtempSync(join(tmpdir(), "links-"));
    try {
      writeFileSync(join(dir, "b.md"), "# The `b` page: one heading\n\n## Again\n\n## Again\n");
      writeFileSync(
        join(dir, "a.md"),
        [
          "# A",
          "[fine](b.md#the-b-page-one-heading) [repeat](b.md#again-1) [self](#a) [web](https://example.com/x.md)",
          "[gone](c.md) [no heading](b.md#nothing) `[in code](d.md)`",
          "```",
          "[in a block](e.md)",
          "```",
        ].join("\n"),
      );
      expect(brokenLinks(dir, "a.md")).toEqual([
        "a.md: c.md: no such file",
        "a.md: b.md#nothing: no heading #nothing in b.md",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
