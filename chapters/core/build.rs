//! Embeds every WGSL file under the workspace's `shaders/` into the binary, so the program runs
//! from anywhere; at run time the files on disk take precedence (and are hot-reloaded).
use std::{env, fs, path::Path};

fn collect(dir: &Path, root: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = fs::read_dir(dir).expect("read shaders dir").flatten().collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "wgsl") {
            let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            out.push(rel);
        }
    }
}

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").unwrap();
    let root = Path::new(&manifest).join("../../shaders").canonicalize().expect("shaders/ dir");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &root, &mut files);
    for f in &files {
        println!("cargo:rerun-if-changed={}", root.join(f).display());
    }
    let mut code = String::from("/// (path relative to `shaders/`, source) of every embedded WGSL file.\n");
    code.push_str("pub const EMBEDDED_SHADERS: &[(&str, &str)] = &[\n");
    for f in &files {
        code.push_str(&format!("    ({f:?}, include_str!({:?})),\n", root.join(f).display().to_string()));
    }
    code.push_str("];\n");
    code.push_str(&format!(
        "/// Absolute path of `shaders/` at build time.\npub const BUILD_SHADER_DIR: &str = {:?};\n",
        root.display().to_string()
    ));
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("embedded_shaders.rs");
    fs::write(out, code).unwrap();
}
