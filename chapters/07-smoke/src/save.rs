//! Saving and loading the smoke: the GPU fields to and from a volume file (`volume_file.rs`
//! holds the format). A load checks everything before it changes anything: on any error the
//! running smoke and its parameters stay as they were.

use crate::fields::{FieldId, check_grid};
use crate::volume_file::{VolumeField, VolumeFile};
use crate::{Smoke, SmokeGpu};
use anyhow::{Result, anyhow, bail};
use fogbook_core::gpu::GpuContext;
use fogbook_core::params::set_by_name;
use std::path::Path;

/// Largest magnitude the half-precision fields hold.
const F16_MAX: f32 = 65504.0;

impl Smoke {
    // ANCHOR: projected_velocity
    /// The velocity after the projection, V = u* − ∇q, as `FieldId::Velocity` lays it out (the
    /// temperature in the fourth channel): the divergence-free field the next step advects
    /// with. The fields hold u*, the velocity before the last projection, whose gradient the
    /// next step's advection subtracts as it samples; this records the projection into the
    /// velocity's spare side, reads it back and leaves the state as it was.
    pub fn projected_velocity(&mut self, g: &mut SmokeGpu, gpu: &GpuContext) -> Result<Vec<f32>> {
        fogbook_core::timing::run_now(gpu, |passes| {
            self.write_uniform(g, gpu, passes);
            crate::passes::record_project(gpu, passes, &g.pipelines, &g.params_group, &mut g.fields);
        });
        let projected = g.download(gpu, FieldId::Velocity);
        g.fields.velocity.swap();
        projected
    }
    // ANCHOR_END: projected_velocity

    // ANCHOR: save
    /// The current fields as a volume file: density, temperature (T − T_amb), colour, and the
    /// projected velocity (`projected_velocity`), divergence-free to the solver's tolerance.
    pub fn snapshot(&mut self, g: &mut SmokeGpu, gpu: &GpuContext) -> Result<VolumeFile> {
        let fluid = g.download(gpu, FieldId::Fluid)?;
        let velocity = self.projected_velocity(g, gpu)?;
        let pick = |from: &[f32], channels: std::ops::Range<usize>| -> Vec<f32> {
            from.chunks_exact(4).flat_map(|c| c[channels.clone()].to_vec()).collect()
        };
        let field = |name: &str, components, values| VolumeField { name: name.into(), components, values };
        Ok(VolumeFile {
            n: g.fields.n,
            box_m: self.params.box_size_m,
            ambient_k: self.params.ambient_temperature_k,
            fields: vec![
                field("density", 1, pick(&fluid, 3..4)),
                field("temperature", 1, pick(&velocity, 3..4)),
                field("color", 3, pick(&fluid, 0..3)),
                field("velocity", 3, pick(&velocity, 0..3)),
            ],
        })
    }

    /// Writes the current fields to `path`.
    pub fn save(&mut self, g: &mut SmokeGpu, gpu: &GpuContext, path: &Path) -> Result<()> {
        self.snapshot(g, gpu)?.write(path)
    }
    // ANCHOR_END: save

    /// Reads `path` and makes it the smoke's state (`restore`).
    pub fn load(&mut self, g: &mut SmokeGpu, gpu: &GpuContext, path: &Path) -> Result<()> {
        let file = VolumeFile::read(path)?;
        self.restore(g, gpu, &file).map_err(|e| anyhow!("{}: {e}", path.display()))
    }

    // ANCHOR: restore
    /// Makes `file` the smoke's state: its grid must be the running one; its box size and
    /// ambient temperature become the parameters'; a missing colour is the emitter's colour
    /// times the density, a missing velocity 0. The pressure starts again from 0: the file's
    /// velocity is already projected, so the next step advects with it as saved (its pressure
    /// solve then starts from 0 instead of the last step's q).
    pub fn restore(&mut self, g: &mut SmokeGpu, gpu: &GpuContext, file: &VolumeFile) -> Result<()> {
        let n = file.n;
        if n != g.fields.n {
            if let Err(e) = check_grid(gpu, n) {
                bail!("the file's {n}³ grid is too big for this device: {e:#}");
            }
            bail!("the file holds a {n}³ grid and the smoke runs at {}³: set grid_size={n} first", g.fields.n);
        }
        file.validate()?;
        let required = |name: &str| file.field(name).ok_or_else(|| anyhow!("the file has no {name:?} field"));
        let (density, temperature) = (required("density")?, required("temperature")?);
        for f in &file.fields {
            let want = match f.name.as_str() {
                "density" | "temperature" => 1,
                "color" | "velocity" => 3,
                _ => continue,
            };
            if f.components != want {
                bail!("field {:?} has {} components, not {want}", f.name, f.components);
            }
            if let Some(v) = f.values.iter().find(|v| v.abs() > F16_MAX) {
                bail!("field {:?} holds {v}, beyond the half-precision fields' ±{F16_MAX}", f.name);
            }
        }
        let mut params = self.params.clone();
        set_by_name(&mut params, "box_size_m", &file.box_m.to_string())
            .map_err(|e| anyhow!("the file's box size: {e}"))?;
        set_by_name(&mut params, "ambient_temperature_k", &file.ambient_k.to_string())
            .map_err(|e| anyhow!("the file's ambient temperature: {e}"))?;
        // ANCHOR_END: restore

        let cells = (n as usize).pow(3);
        let colour = self.params.injection_color;
        let mut fluid = vec![0.0f32; 4 * cells];
        let mut velocity = vec![0.0f32; 4 * cells];
        for i in 0..cells {
            let rho = density.values[i];
            let rgb = match file.field("color") {
                Some(c) => [c.values[3 * i], c.values[3 * i + 1], c.values[3 * i + 2]],
                None => [colour[0] * rho, colour[1] * rho, colour[2] * rho],
            };
            fluid[4 * i..4 * i + 4].copy_from_slice(&[rgb[0], rgb[1], rgb[2], rho]);
            if let Some(u) = file.field("velocity") {
                velocity[4 * i..4 * i + 3].copy_from_slice(&u.values[3 * i..3 * i + 3]);
            }
            velocity[4 * i + 3] = temperature.values[i];
        }
        // Everything is checked: from here on nothing fails but the device itself.
        g.upload(gpu, FieldId::Fluid, &fluid)?;
        g.upload(gpu, FieldId::Velocity, &velocity)?;
        g.upload(gpu, FieldId::Pressure, &vec![0.0; cells])?;
        self.params = params;
        self.invalidate_light();
        Ok(())
    }
}
