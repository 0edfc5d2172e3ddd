#!/usr/bin/env node
// Opens every page of the built book in headless Chromium and fails on what a reader would see
// broken:
//
// - an image that did not load (not complete, or naturalWidth 0), or any resource that failed or
//   answered 4xx/5xx (stylesheets, scripts, KaTeX's fonts);
// - a request for anything outside the book: the pages must work without a network;
// - a leftover mdBook directive (`{{#…`) in the rendered text;
// - maths left untypeset (`\(`, `\[` in the text outside code) or a KaTeX error element;
// - a link to a page that is not in the build, or to a `#fragment` that no element on the target
//   page has as its id;
// - an error on the console or an uncaught exception.
//
// External links (http…) are not fetched; they are listed at the end.
//
// Usage: node scripts/check.mjs [BUILD_DIR]   (default: book/book; CHROMIUM=path overrides the
// browser, otherwise /usr/lib/chromium/chromium, /usr/bin/chromium or `chromium` on PATH).

import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const bookDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const buildDir = path.resolve(process.argv[2] ?? path.join(bookDir, "book"));

let chromium;
try {
  ({ chromium } = await import("playwright-core"));
} catch {
  console.error("check: playwright-core is not installed; run `npm ci` in book/ (or `cargo xtask book`)");
  process.exit(2);
}

function findChromium() {
  const candidates = [process.env.CHROMIUM, "/usr/lib/chromium/chromium", "/usr/bin/chromium"];
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    candidates.push(path.join(dir, "chromium"), path.join(dir, "chromium-browser"));
  }
  return candidates.find((c) => c && fs.existsSync(c));
}

// ---------------------------------------------------------------------------------------------
// The build served on 127.0.0.1, so the pages load as they would from any web server.

const types = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css",
  ".js": "text/javascript",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".ico": "image/x-icon",
};

/** The file in the build that a URL path names, or null. */
function fileFor(urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const file = path.join(buildDir, path.normalize(rel));
  if (!file.startsWith(buildDir)) return null;
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) {
    const index = path.join(file, "index.html");
    return fs.existsSync(index) ? index : null;
  }
  return fs.existsSync(file) ? file : null;
}

const server = http.createServer((req, res) => {
  const file = fileFor(new URL(req.url, "http://localhost").pathname);
  if (!file) {
    res.writeHead(404).end("not found");
    return;
  }
  res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
  fs.createReadStream(file).pipe(res);
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const origin = `http://127.0.0.1:${server.address().port}`;

// ---------------------------------------------------------------------------------------------

if (!fs.existsSync(path.join(buildDir, "index.html"))) {
  console.error(`check: no book at ${buildDir} (build it with \`mdbook build book\`)`);
  process.exit(2);
}
const executablePath = findChromium();
if (!executablePath) {
  console.error("check: Chromium not found; install it with `apt-get install -y --no-install-recommends chromium`");
  process.exit(2);
}

// Every page mdBook wrote, except its sidebar fallback for readers without scripts.
const pages = fs
  .readdirSync(buildDir, { recursive: true })
  .filter((f) => f.endsWith(".html") && f !== "toc.html")
  .map((f) => f.split(path.sep).join("/"))
  .sort();

const browser = await chromium.launch({ executablePath, headless: true, chromiumSandbox: false });
const browserVersion = browser.version();
const context = await browser.newContext();
const problems = []; // [page, message]
const external = new Map(); // url -> Set(page)
const idsOf = new Map(); // page -> Set(id)
const linksOf = new Map(); // page -> [{ href, text }]

for (const page of pages) {
  const tab = await context.newPage();
  const report = (msg) => problems.push([page, msg]);
  const failed = new Map(); // path in the book -> why it did not load
  tab.on("console", (m) => {
    // A resource that failed is reported once, with its path, from the events below.
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) report(`console error: ${m.text()}`);
  });
  tab.on("pageerror", (e) => report(`uncaught exception: ${e.message}`));
  tab.on("requestfailed", (r) => {
    if (r.url().startsWith(origin)) failed.set(r.url().slice(origin.length), r.failure()?.errorText ?? "failed");
  });
  tab.on("response", (r) => {
    if (r.status() >= 400) failed.set(r.url().replace(origin, ""), `HTTP ${r.status()}`);
  });
  await tab.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith("data:")) return route.continue();
    report(`requests a resource outside the book (needs a network): ${url}`);
    return route.abort();
  });

  await tab.goto(`${origin}/${page}`, { waitUntil: "load" });
  const found = await tab.evaluate(async () => {
    await document.fonts.ready;
    const skip = (el) => el.closest("pre, code, script, style, .katex, noscript, textarea");
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const rawMaths = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement && !skip(n.parentElement) && /\\[([]/.test(n.textContent)) {
        rawMaths.push(n.textContent.trim().slice(0, 80));
      }
    }
    const katex = document.querySelector(".katex");
    return {
      images: [...document.images].map((img) => ({
        src: img.getAttribute("src"),
        url: img.currentSrc || img.src,
        ok: img.complete && img.naturalWidth > 0,
      })),
      directives: (document.body.innerText.match(/\{\{#[^\n]{0,60}/g) ?? []),
      rawMaths,
      katexErrors: [...document.querySelectorAll(".katex-error")].map((e) => e.getAttribute("title") ?? e.textContent),
      katexStyled: !katex || getComputedStyle(katex).fontFamily.includes("KaTeX_Main"),
      fontErrors: [...document.fonts].filter((f) => f.status === "error").map((f) => f.family),
      ids: [...document.querySelectorAll("[id]")].map((e) => e.id).concat(
        [...document.querySelectorAll("a[name]")].map((e) => e.getAttribute("name")),
      ),
      links: [...document.querySelectorAll("a[href]")].map((a) => ({
        href: a.href,
        raw: a.getAttribute("href"),
        text: a.textContent.trim().slice(0, 40),
      })),
    };
  });
  const brokenImages = new Set();
  for (const img of found.images) {
    const at = img.url.replace(origin, "");
    if (img.ok || brokenImages.has(at)) continue;
    brokenImages.add(at);
    report(`image did not load: ${img.src}${failed.has(at) ? ` (${failed.get(at)})` : ""}`);
  }
  for (const at of brokenImages) failed.delete(at);
  for (const [at, why] of failed) report(`failed to load ${at}: ${why}`);
  for (const d of found.directives) report(`leftover mdBook directive in the text: ${d}`);
  for (const m of found.rawMaths) report(`maths not typeset: ${m}`);
  for (const e of found.katexErrors) report(`KaTeX error: ${e}`);
  if (!found.katexStyled) report("KaTeX's stylesheet is not applied (katex/katex.min.css missing?)");
  for (const f of found.fontErrors) report(`font failed to load: ${f}`);
  idsOf.set(page, new Set(found.ids));
  linksOf.set(page, found.links);
  await tab.close();
}
await browser.close();
server.close();

// Links, once every page's ids are known.
for (const [page, links] of linksOf) {
  // The 404 page is served at any address and resolves its links against the site's root.
  if (page === "404.html") continue;
  for (const { href, raw, text } of links) {
    if (/^(javascript|mailto):/.test(href)) continue;
    if (!href.startsWith(origin)) {
      if (/^https?:/.test(href)) {
        if (!external.has(href)) external.set(href, new Set());
        external.get(href).add(page);
      } else {
        problems.push([page, `link with an unexpected scheme: ${raw}`]);
      }
      continue;
    }
    const url = new URL(href);
    const file = fileFor(url.pathname);
    if (!file) {
      problems.push([page, `link to a page that is not in the book: ${raw} ("${text}")`]);
      continue;
    }
    const fragment = decodeURIComponent(url.hash.slice(1));
    if (!fragment) continue;
    const target = path.relative(buildDir, file).split(path.sep).join("/");
    const ids = idsOf.get(target);
    if (ids && !ids.has(fragment)) {
      problems.push([page, `link to a missing anchor: ${raw} ("${text}"): ${target} has no id "${fragment}"`]);
    }
  }
}

console.log(`check: ${pages.length} pages opened in ${path.basename(executablePath)} (${browserVersion})`);
if (external.size > 0) {
  console.log(`check: ${external.size} external links, not fetched:`);
  for (const [url, from] of [...external].sort()) console.log(`    ${url}  (${[...from].join(", ")})`);
}
if (problems.length > 0) {
  // One line per problem, with every page it occurs on (print.html repeats every chapter).
  const byMessage = new Map();
  for (const [page, msg] of problems) {
    if (!byMessage.has(msg)) byMessage.set(msg, new Set());
    byMessage.get(msg).add(page);
  }
  console.error(`check: ${byMessage.size} problem(s):`);
  for (const [msg, on] of byMessage) console.error(`  ${[...on].join(", ")}: ${msg}`);
  if ([...byMessage.keys()].some((m) => m.startsWith("image did not load: figures/"))) {
    console.error("check: figures are missing or stale; render them with `cargo xtask book --figures`");
  }
  process.exit(1);
}
console.log("check: every page loads cleanly: images, maths, links, no directives, no console errors");
