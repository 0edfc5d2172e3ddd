//! The smoke volume file: a small binary format for the smoke's fields, written by a smoke
//! simulation's save and read back by its load and by the fog volumes' density textures (any
//! chapter that wants a density and a temperature volume). It lives in the core, not with the
//! solver, so that a reader needs no smoke solver. Everything is little-endian.
//!
//! ```text
//! offset  size        contents
//! 0       8           magic: the bytes "FOGBVOL" and a 0 byte
//! 8       4           version, u32 = 1
//! 12      4           grid n, u32: cells per side (1 ..= 1024)
//! 16      4           box size, f32 (m): the side of the cube the grid fills
//! 20      4           ambient temperature T_amb, f32 (K)
//! 24      4           field count k, u32 (1 ..= 16)
//! 28      16 k        field table, per field: name (12 bytes ASCII, 0-padded), components c (u32, 1 ..= 4)
//! 28+16k  4 n³ Σc     data, f32: the fields in table order, each n³ cells with x fastest, then
//!                     y, then z, and a cell's c components together
//! ```
//!
//! The fields a smoke simulation saves: `density` (1), `temperature` (1: T − T_amb in K, so that
//! values round-trip exactly; T = T_amb + value), `color` (3: the smoke colour times its
//! density, the fluid texture's first three channels), `velocity` (3, m/s: the staggered grid's
//! face values, a cell's three being u_x, u_y, u_z on its low x-, y- and z-faces, after the
//! pressure projection, so divergence-free to the solver's tolerance; no pressure is stored).
//! Readers require what they need (a smoke simulation's load: density and temperature) and skip names they do
//! not know.
//!
//! A file is read whole and checked before anything uses it: magic, version, sizes, the exact
//! length (a truncated or padded file is refused), names, and finite data.

use anyhow::{Result, bail};
use std::path::Path;

pub const MAGIC: [u8; 8] = *b"FOGBVOL\0";
pub const VERSION: u32 = 1;
/// The largest grid and field count a file may declare (a bad header must not ask for
/// terabytes).
pub const MAX_N: u32 = 1024;
pub const MAX_FIELDS: u32 = 16;
const NAME_BYTES: usize = 12;
const HEADER_BYTES: usize = 28;
const ENTRY_BYTES: usize = NAME_BYTES + 4;

/// One named field: `components` values per cell, n³ cells.
#[derive(Clone, Debug, PartialEq)]
pub struct VolumeField {
    pub name: String,
    pub components: u32,
    pub values: Vec<f32>,
}

/// The contents of a volume file.
#[derive(Clone, Debug, PartialEq)]
pub struct VolumeFile {
    pub n: u32,
    pub box_m: f32,
    pub ambient_k: f32,
    pub fields: Vec<VolumeField>,
}

impl VolumeFile {
    /// The field called `name`, if the file has it.
    pub fn field(&self, name: &str) -> Option<&VolumeField> {
        self.fields.iter().find(|f| f.name == name)
    }

    fn cells(&self) -> usize {
        (self.n as usize).pow(3)
    }

    /// Checks what `to_bytes` would write, with the same rules `from_bytes` applies.
    pub fn validate(&self) -> Result<()> {
        if self.n == 0 || self.n > MAX_N {
            bail!("grid size {} is outside 1 ..= {MAX_N}", self.n);
        }
        if !(self.box_m.is_finite() && self.box_m > 0.0) {
            bail!("box size {} m is not a positive number", self.box_m);
        }
        if !(self.ambient_k.is_finite() && self.ambient_k > 0.0) {
            bail!("ambient temperature {} K is not a positive number", self.ambient_k);
        }
        if self.fields.is_empty() || self.fields.len() > MAX_FIELDS as usize {
            bail!("{} fields; a file holds 1 ..= {MAX_FIELDS}", self.fields.len());
        }
        for (i, f) in self.fields.iter().enumerate() {
            if f.name.is_empty() || f.name.len() > NAME_BYTES || !f.name.bytes().all(|b| b.is_ascii_graphic()) {
                bail!("field name {:?}: 1 to {NAME_BYTES} printable ASCII characters", f.name);
            }
            if self.fields[..i].iter().any(|g| g.name == f.name) {
                bail!("field {:?} appears twice", f.name);
            }
            if !(1..=4).contains(&f.components) {
                bail!("field {:?} has {} components; 1 ..= 4 allowed", f.name, f.components);
            }
            if f.values.len() != self.cells() * f.components as usize {
                bail!("field {:?} holds {} values, not {}³ × {}", f.name, f.values.len(), self.n, f.components);
            }
            if let Some(i) = f.values.iter().position(|v| !v.is_finite()) {
                bail!("field {:?} holds a non-finite value at index {i}", f.name);
            }
        }
        Ok(())
    }

    // ANCHOR: to_bytes
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        self.validate()?;
        let data: usize = self.fields.iter().map(|f| f.values.len() * 4).sum();
        let mut out = Vec::with_capacity(HEADER_BYTES + ENTRY_BYTES * self.fields.len() + data);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.n.to_le_bytes());
        out.extend_from_slice(&self.box_m.to_le_bytes());
        out.extend_from_slice(&self.ambient_k.to_le_bytes());
        out.extend_from_slice(&(self.fields.len() as u32).to_le_bytes());
        for f in &self.fields {
            let mut name = [0u8; NAME_BYTES];
            name[..f.name.len()].copy_from_slice(f.name.as_bytes());
            out.extend_from_slice(&name);
            out.extend_from_slice(&f.components.to_le_bytes());
        }
        for f in &self.fields {
            out.extend(f.values.iter().flat_map(|v| v.to_le_bytes()));
        }
        Ok(out)
    }
    // ANCHOR_END: to_bytes

    /// Parses a whole file; every error says what is wrong and where.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let f32_at = |at: usize| f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        if bytes.len() < HEADER_BYTES {
            if bytes.len() >= MAGIC.len() && bytes[..MAGIC.len()] != MAGIC {
                bail!("not a smoke volume file (no FOGBVOL magic)");
            }
            bail!("truncated: {} bytes, shorter than the {HEADER_BYTES}-byte header", bytes.len());
        }
        if bytes[..MAGIC.len()] != MAGIC {
            bail!("not a smoke volume file (no FOGBVOL magic)");
        }
        let version = u32_at(8);
        if version != VERSION {
            bail!("version {version}; this build reads version {VERSION}");
        }
        let (n, box_m, ambient_k, count) = (u32_at(12), f32_at(16), f32_at(20), u32_at(24));
        if n == 0 || n > MAX_N {
            bail!("grid size {n} is outside 1 ..= {MAX_N}");
        }
        if count == 0 || count > MAX_FIELDS {
            bail!("{count} fields; a file holds 1 ..= {MAX_FIELDS}");
        }
        let table_end = HEADER_BYTES + ENTRY_BYTES * count as usize;
        if bytes.len() < table_end {
            bail!("truncated: {} bytes, the field table ends at byte {table_end}", bytes.len());
        }
        let cells = (n as usize).pow(3);
        let mut entries = Vec::new();
        for i in 0..count as usize {
            let at = HEADER_BYTES + ENTRY_BYTES * i;
            let raw = &bytes[at..at + NAME_BYTES];
            let len = raw.iter().position(|&b| b == 0).unwrap_or(NAME_BYTES);
            let name = String::from_utf8_lossy(&raw[..len]).into_owned();
            let components = u32_at(at + NAME_BYTES);
            if !(1..=4).contains(&components) {
                bail!("field {name:?} has {components} components; 1 ..= 4 allowed");
            }
            entries.push((name, components));
        }
        let expected = table_end + entries.iter().map(|(_, c)| cells * *c as usize * 4).sum::<usize>();
        if bytes.len() != expected {
            let what = if bytes.len() < expected { "truncated" } else { "too long" };
            bail!("{what}: {} bytes, but a {n}³ grid with these {count} fields takes {expected}", bytes.len());
        }
        let mut at = table_end;
        let mut fields = Vec::new();
        for (name, components) in entries {
            let len = cells * components as usize;
            let values =
                bytes[at..at + 4 * len].chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
            at += 4 * len;
            fields.push(VolumeField { name, components, values });
        }
        let file = Self { n, box_m, ambient_k, fields };
        file.validate()?;
        Ok(file)
    }

    pub fn write(&self, path: &Path) -> Result<()> {
        let bytes = self.to_bytes()?;
        std::fs::write(path, bytes).map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))
    }

    pub fn read(path: &Path) -> Result<Self> {
        let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
        Self::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(n: u32) -> VolumeFile {
        let cells = (n as usize).pow(3);
        VolumeFile {
            n,
            box_m: 12.0,
            ambient_k: 293.15,
            fields: vec![
                VolumeField { name: "density".into(), components: 1, values: (0..cells).map(|i| i as f32).collect() },
                VolumeField {
                    name: "velocity".into(),
                    components: 3,
                    values: (0..3 * cells).map(|i| -(i as f32) / 7.0).collect(),
                },
            ],
        }
    }

    #[test]
    fn bytes_round_trip_and_have_the_documented_length() {
        let f = sample(4);
        let bytes = f.to_bytes().unwrap();
        assert_eq!(bytes.len(), 28 + 2 * 16 + 4 * 64 * 4);
        assert_eq!(&bytes[..8], b"FOGBVOL\0");
        assert_eq!(VolumeFile::from_bytes(&bytes).unwrap(), f);
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let good = sample(4).to_bytes().unwrap();
        let err = |b: &[u8]| VolumeFile::from_bytes(b).unwrap_err().to_string();
        assert!(err(&good[..good.len() - 1]).contains("truncated"));
        assert!(err(&good[..20]).contains("truncated"));
        assert!(err(&[good.as_slice(), &[0]].concat()).contains("too long"));
        let mut bad = good.clone();
        bad[0] = b'X';
        assert!(err(&bad).contains("magic"));
        let mut bad = good.clone();
        bad[8] = 2;
        assert!(err(&bad).contains("version 2"));
        let mut bad = good.clone();
        bad[12..16].copy_from_slice(&5000u32.to_le_bytes());
        assert!(err(&bad).contains("grid size 5000"));
        let mut bad = good.clone();
        bad[28 + 12] = 9;
        assert!(err(&bad).contains("9 components"));
        let mut bad = good.clone();
        let last = bad.len() - 4;
        bad[last..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(err(&bad).contains("non-finite"));
        assert!(err(&[]).contains("truncated"));
    }
}
