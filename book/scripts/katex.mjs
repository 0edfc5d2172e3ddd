#!/usr/bin/env node
// mdBook preprocessor: typesets the book's maths with KaTeX when the book is built, so that the
// pages need no script and no network to show a formula.
//
// The pages write maths as MathJax reads it after Markdown: `\\( … \\)` inline and `\\[ … \\]`
// for display, with Markdown's backslash escapes inside (`\_` for `_`, `\\,` for `\,`). Each
// formula is unescaped the way Markdown would unescape it, rendered by KaTeX, and replaced by its
// HTML on one line. Fenced code blocks, code spans and HTML comments are left alone.
//
// Any formula KaTeX cannot parse, or that breaks KaTeX's strict LaTeX rules, fails the build with
// the page, line and formula. The preprocessor also copies KaTeX's stylesheet and fonts into
// `src/katex/` (git-ignored), which mdBook copies into the built book; `theme/head.hbs` links the
// stylesheet from every page.
//
// Protocol (mdBook 0.5): `katex.mjs supports <renderer>` exits 0 for html; otherwise stdin holds
// `[context, book]` and stdout receives the book.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const bookDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

if (process.argv[2] === "supports") {
  process.exit(process.argv[3] === "html" ? 0 : 1);
}

let katex;
try {
  katex = (await import("katex")).default;
} catch {
  console.error(
    "katex preprocessor: KaTeX is not installed; run `npm ci` in book/ (or `cargo xtask book`, which does)",
  );
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Finding the maths in a page's Markdown.

/** Markdown's backslash escapes and the entities the pages might use, as Markdown resolves them. */
function unescapeMarkdown(s) {
  return s
    .replace(/\\([!-/:-@[-`{-~])/g, "$1")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, "&");
}

/** The opening fence of a fenced code block on this line, if any: its character and length. */
function fenceOpen(line) {
  const m = /^\s*(?:(?:[-*+]|\d+[.)])\s+)*(`{3,}|~{3,})/.exec(line);
  return m ? { ch: m[1][0], len: m[1].length } : null;
}

function fenceCloses(line, fence) {
  const t = line.trim();
  if (t.length < fence.len || t[0] !== fence.ch) return false;
  return [...t].every((c) => c === fence.ch);
}

/**
 * Splits a page into the parts where maths may occur and the parts where it may not (fenced code
 * blocks). Returns [{ text, code, line }] with `line` the 1-based line the part starts on.
 */
function splitFences(content) {
  const lines = content.split("\n");
  const parts = [];
  let cur = { text: "", code: false, line: 1 };
  let fence = null;
  lines.forEach((line, i) => {
    const nl = i + 1 < lines.length ? "\n" : "";
    if (fence === null) {
      const open = fenceOpen(line);
      if (open) {
        parts.push(cur);
        cur = { text: line + nl, code: true, line: i + 1 };
        fence = open;
        return;
      }
      cur.text += line + nl;
    } else {
      cur.text += line + nl;
      if (fenceCloses(line, fence)) {
        parts.push(cur);
        cur = { text: "", code: false, line: i + 2 };
        fence = null;
      }
    }
  });
  parts.push(cur);
  return parts.filter((p) => p.text.length > 0);
}

/** Escapes what Markdown would read in the text between KaTeX's tags (`_`, `*`, `\`, `[` …). */
function protectFromMarkdown(html) {
  return html.replace(/(<[^>]*>)|(&[#a-zA-Z0-9]+;)|([!-/:-@[-`{-~])/g, (m, tag, entity, punct) => {
    if (tag || entity) return m;
    return `&#${punct.codePointAt(0)};`;
  });
}

const errors = [];

function typeset(tex, display, where) {
  try {
    const html = katex.renderToString(tex, {
      displayMode: display,
      throwOnError: true,
      strict: "error",
      output: "htmlAndMathml",
    });
    // One line, so that Markdown sees the formula as inline HTML wherever it stands (the
    // newlines are in SVG paths and in the TeX source kept for screen readers).
    return protectFromMarkdown(html.replace(/\n/g, " "));
  } catch (e) {
    const msg = String(e.message ?? e).replace(/\s+/g, " ");
    errors.push(`${where}: ${msg}\n    formula: ${display ? "\\[" : "\\("}${tex}${display ? "\\]" : "\\)"}`);
    return "";
  }
}

/**
 * The line of a page's own file that holds `snippet`; includes have been expanded before this
 * preprocessor runs, so the line in the expanded text is only the fallback.
 */
function sourceLine(source, snippet, expandedLine) {
  let text;
  try {
    text = fs.readFileSync(path.join(bookDir, source), "utf8");
  } catch {
    return `${expandedLine} (after includes)`;
  }
  const at = text.indexOf(snippet);
  if (at === -1 || text.indexOf(snippet, at + 1) !== -1) return `${expandedLine} (after includes)`;
  return (text.slice(0, at).match(/\n/g) ?? []).length + 1;
}

/** Replaces the maths in one non-code part of a page, skipping code spans and HTML comments. */
function typesetPart(text, source, firstLine) {
  let out = "";
  let i = 0;
  const lineAt = (pos) => firstLine + (text.slice(0, pos).match(/\n/g) ?? []).length;
  while (i < text.length) {
    const c = text[i];
    if (c === "`") {
      let n = 0;
      while (text[i + n] === "`") n++;
      const ticks = "`".repeat(n);
      // A code span ends at the next run of exactly as many backticks.
      let j = i + n;
      let end = -1;
      while ((j = text.indexOf(ticks, j)) !== -1) {
        if (text[j + n] !== "`" && text[j - 1] !== "`") {
          end = j + n;
          break;
        }
        while (text[j] === "`") j++;
      }
      if (end === -1) {
        out += ticks;
        i += n;
      } else {
        out += text.slice(i, end);
        i = end;
      }
      continue;
    }
    if (text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i + 4);
      const stop = end === -1 ? text.length : end + 3;
      out += text.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === "\\" && text[i + 1] === "\\" && (text[i + 2] === "(" || text[i + 2] === "[")) {
      const display = text[i + 2] === "[";
      const close = display ? "\\\\]" : "\\\\)";
      const end = text.indexOf(close, i + 3);
      const where = `${source}:${sourceLine(source, text.slice(i, i + 40), lineAt(i))}`;
      const body = end === -1 ? null : text.slice(i + 3, end);
      if (body === null || (!display && /\n\s*\n/.test(body))) {
        errors.push(`${where}: ${display ? "\\\\[" : "\\\\("} is never closed`);
        out += text.slice(i, i + 3);
        i += 3;
        continue;
      }
      out += typeset(unescapeMarkdown(body).trim(), display, where);
      i = end + close.length;
      continue;
    }
    if (c === "\\" && /[!-/:-@[-`{-~]/.test(text[i + 1] ?? "")) {
      // A Markdown escape (`\\`, `\``): never the start of a delimiter or a code span.
      out += text.slice(i, i + 2);
      i += 2;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

function typesetPage(content, source) {
  return splitFences(content)
    .map((p) => (p.code ? p.text : typesetPart(p.text, source, p.line)))
    .join("");
}

function walk(items, visit) {
  for (const item of items ?? []) {
    if (item && item.Chapter) {
      visit(item.Chapter);
      walk(item.Chapter.sub_items, visit);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// KaTeX's stylesheet and fonts, copied into the book's sources when they differ from the installed
// KaTeX's (`mdbook serve` watches src/, so an unchanged copy is left alone).

function copyAssets() {
  const dist = path.join(bookDir, "node_modules", "katex", "dist");
  const dest = path.join(bookDir, "src", "katex");
  const files = ["katex.min.css", ...fs.readdirSync(path.join(dist, "fonts")).map((f) => `fonts/${f}`)];
  const same = (f) => {
    try {
      return fs.readFileSync(path.join(dist, f)).equals(fs.readFileSync(path.join(dest, f)));
    } catch {
      return false;
    }
  };
  if (files.every(same)) return;
  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(path.join(dest, "fonts"), { recursive: true });
  for (const f of files) fs.copyFileSync(path.join(dist, f), path.join(dest, f));
}

// ---------------------------------------------------------------------------------------------

const input = fs.readFileSync(0, "utf8");
const [, book] = JSON.parse(input);
walk(book.items ?? book.sections, (chapter) => {
  if (typeof chapter.content !== "string") return;
  const source = chapter.source_path ?? chapter.path ?? chapter.name;
  chapter.content = typesetPage(chapter.content, `src/${source}`);
});

if (errors.length > 0) {
  console.error(`katex preprocessor: ${errors.length} problem(s) with the maths:\n${errors.join("\n")}`);
  process.exit(1);
}
copyAssets();
process.stdout.write(JSON.stringify(book));
