//! The contracts between Rust and WGSL, checked rather than copied by hand: every uniform struct
//! has the same members at the same offsets and the same size as naga lays out its WGSL twin,
//! and every `VIEW_*` constant a shader switches on names the view at that index of its
//! chapter's view list.

use fogbook::registry;
use fogbook_core::display::DisplayUniform;
use fogbook_core::frame::FrameUniform;
use fogbook_core::shaders::{ShaderStore, core_constants};
use fogbook_distance_fog::FogUniform;
use fogbook_froxel_fog::FroxelUniform;
use fogbook_height_fog::HeightFogUniform;
use fogbook_sky::AtmosphereUniform;
use std::mem::{offset_of, size_of};

/// (size, [(member, offset)]) of a Rust struct.
macro_rules! rust_layout {
    ($t:ty { $($field:ident),* $(,)? }) => {
        (size_of::<$t>(), vec![$((stringify!($field), offset_of!($t, $field))),*])
    };
}

/// The store that composes `file` with the constants from Rust of the chapter that owns it.
fn store_for(file: &str) -> ShaderStore {
    let folder = file.rsplit_once('/').map_or("", |(f, _)| f);
    let prelude = registry::chapters()
        .into_iter()
        .find(|c| c.shader_files().iter().any(|f| f.rsplit_once('/').is_some_and(|(d, _)| d == folder)))
        .map(|c| c.shader_prelude())
        .unwrap_or_default();
    ShaderStore::discover().with_constants(prelude)
}

/// (size, [(member, offset)]) of `struct name` in `file` as naga lays it out for a uniform.
fn wgsl_layout(file: &str, name: &str) -> (usize, Vec<(String, usize)>) {
    let module = store_for(file).load(file).unwrap_or_else(|e| panic!("{e}")).validate().unwrap();
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).unwrap();
    for (_, ty) in module.types.iter() {
        if ty.name.as_deref() != Some(name) {
            continue;
        }
        if let naga::TypeInner::Struct { members, span } = &ty.inner {
            let members = members.iter().map(|m| (m.name.clone().unwrap_or_default(), m.offset as usize)).collect();
            return (*span as usize, members);
        }
    }
    panic!("{file}: no struct {name}");
}

/// Compares member names and offsets, and sizes. A Rust member named `_pad` stands for the
/// padding WGSL adds by itself at the end of a struct (WGSL needs no member for it).
fn check(file: &str, name: &str, rust: (usize, Vec<(&str, usize)>)) {
    let (wgsl_size, wgsl) = wgsl_layout(file, name);
    let rust_members: Vec<(String, usize)> =
        rust.1.iter().filter(|(n, _)| *n != "_pad").map(|(n, o)| (n.to_string(), *o)).collect();
    assert_eq!(rust_members, wgsl, "{file}: struct {name}: members (name, byte offset), Rust vs WGSL");
    assert_eq!(rust.0, wgsl_size, "{file}: struct {name}: size, Rust vs WGSL");
}

/// The core's structs: the frame, its lights, a fog volume, the volumetric grid's uniform (common), the display.
#[test]
fn the_cores_uniforms_match_their_wgsl_layout() {
    check(
        "common/frame.wgsl",
        "Frame",
        rust_layout!(FrameUniform {
            view_proj,
            inv_view_proj,
            sun_view_proj,
            camera_pos,
            sun_dir,
            sun_color,
            ambient,
            viewport,
            time_s,
            frame_index,
            sky_distance_m,
            exposure_ev,
            cam_forward,
            cam_right,
            cam_up,
            prev_view_proj,
            jitter_px,
            history_valid,
            history_epoch,
            volumetric_far_m,
            light_count,
            jitter_depth,
            _pad,
            height_layers,
            lights,
        }),
    );
    check(
        "common/frame.wgsl",
        "LocalLight",
        rust_layout!(fogbook_core::lights::LocalLight { position, intensity, spot }),
    );
    check(
        "common/media/fog_volume.wgsl",
        "FogVolume",
        rust_layout!(fogbook_core::media::volumes::FogVolume {
            centre,
            half_size,
            albedo_density,
            emission_falloff,
            axis_x,
            axis_y,
            axis_z,
            texture,
            texture_offset
        }),
    );
    check(
        "common/volumetric_grid.wgsl",
        "FroxelParams",
        rust_layout!(FroxelUniform { grid, slices, medium, albedo, light, debug, temporal, noise, wind }),
    );
    check(
        "core/display.wgsl",
        "Display",
        rust_layout!(DisplayUniform {
            range_min,
            range_max,
            exposure_ev,
            mode,
            log_scale,
            legend,
            auto_range,
            dither,
            origin_x,
            origin_y
        }),
    );
}

/// The analytic fogs', the local volumes' and the clouds' uniforms.
#[test]
fn the_fog_uniforms_match_their_wgsl_layout() {
    check(
        "01-distance-fog/distance_fog.wgsl",
        "FogParams",
        rust_layout!(FogUniform {
            color,
            extinction,
            inscattering,
            glow_color,
            shape,
            march_end_m,
            falloff,
            glow_shadowed,
            glow_shadow_steps,
            view,
            _pad
        }),
    );
    check(
        "06-clouds/march.wgsl",
        "CloudParams",
        rust_layout!(fogbook_clouds::CloudUniform {
            shell,
            shape,
            scales,
            wind,
            medium,
            phase,
            octaves,
            light,
            counts,
            flags,
            realtime,
            reprojection
        }),
    );
    check(
        "06-clouds/noise_generate.wgsl",
        "NoiseParams",
        rust_layout!(fogbook_clouds::textures::NoiseUniform { seed, size, _pad0, _pad1 }),
    );
    check(
        "05-local-fog/analytic.wgsl",
        "LocalFogParams",
        rust_layout!(fogbook_local_fog::LocalFogUniform { counts, light }),
    );
    check(
        "02-height-fog/height_fog.wgsl",
        "HeightFogParams",
        rust_layout!(HeightFogUniform {
            layer1,
            layer2,
            distances,
            inscattering,
            directional,
            plot,
            view,
            height_fog_on,
            use_sky_color,
            _pad0,
        }),
    );
}

/// The shared tables' atmosphere and the shadows media cast.
#[test]
fn the_sky_and_shadow_uniforms_match_their_wgsl_layout() {
    check(
        "common/atmosphere_tables.wgsl",
        "AtmosphereParams",
        rust_layout!(AtmosphereUniform {
            radii,
            rayleigh,
            mie,
            ozone,
            solar,
            view,
            scattering_orders,
            horizon_blend_on,
            _pad0,
            sizes,
            mu_s_min,
            horizon_blend_half_width,
            lut_slice,
            _pad1
        }),
    );
    check(
        "common/volume_shadow.wgsl",
        "VolumeShadow",
        rust_layout!(fogbook_core::volume_shadow::VolumeShadowUniform { box_min, box_side_m, tint, enabled }),
    );
    let cloud_shadow = || {
        rust_layout!(fogbook_core::cloud_shadow::CloudShadowUniform {
            centre_xz,
            extent_m,
            enabled,
            towards_sun,
            strength
        })
    };
    check("common/cloud_shadow.wgsl", "CloudShadow", cloud_shadow());
    // The clouds' builder reads the same buffer.
    check("06-clouds/shadow_map.wgsl", "CloudShadowMap", cloud_shadow());
}

/// The 3D smoke's uniform: its groups in order, and each group's members.
#[test]
fn the_smoke_uniform_matches_its_wgsl_layout() {
    use fogbook_smoke::{
        SmokeCuboid, SmokeDisplay, SmokeEmitter, SmokeForces, SmokeGrid, SmokeLight, SmokeOptics, SmokeSolver,
        SmokeSphere, SmokeUniform,
    };
    let file = "07-smoke/params.wgsl";
    check(
        file,
        "SmokeParams",
        rust_layout!(SmokeUniform { grid, solver, forces, emitter, sphere, cuboid, optics, light, display }),
    );
    check(file, "SmokeGrid", rust_layout!(SmokeGrid { box_min, n, cell_m, box_m, dt_s, step_index }));
    check(
        file,
        "SmokeSolver",
        rust_layout!(SmokeSolver {
            velocity_keep,
            density_keep,
            temperature_keep,
            pressure_gradient_scale,
            advection,
            top_boundary,
            _pad0,
            _pad1
        }),
    );
    check(file, "SmokeForces", rust_layout!(SmokeForces { buoyancy, heat_lift, vorticity, _pad0 }));
    check(
        file,
        "SmokeEmitter",
        rust_layout!(SmokeEmitter { centre, radius, velocity, rate, color, excess_k, turbulence, turbulence_seed }),
    );
    check(file, "SmokeSphere", rust_layout!(SmokeSphere { centre, radius, velocity, enabled }));
    check(file, "SmokeCuboid", rust_layout!(SmokeCuboid { centre, enabled, half, velocity }));
    check(
        file,
        "SmokeOptics",
        rust_layout!(SmokeOptics {
            extinction_tint,
            extinction,
            emission,
            emission_start_k,
            emission_full_k,
            ambient_k
        }),
    );
    check(
        file,
        "SmokeLight",
        rust_layout!(SmokeLight {
            towards_sun,
            sun_intensity,
            ground_albedo,
            ambient_scale,
            phase_g,
            octaves,
            octave_extinction,
            octave_contribution,
            octave_eccentricity,
            shadow_steps
        }),
    );
    check(
        file,
        "SmokeDisplay",
        rust_layout!(SmokeDisplay {
            view,
            field_display,
            slice_axis,
            slice_position,
            march_steps,
            _pad0,
            _pad1,
            _pad2
        }),
    );
}

/// The 2D smoke's uniform and the multigrid tail's.
#[test]
fn the_2d_smoke_and_multigrid_uniforms_match_their_wgsl_layout() {
    check(
        "07-smoke-2d/common.wgsl",
        "Smoke2dParams",
        rust_layout!(fogbook_smoke_2d::Smoke2dUniform {
            grid_n,
            cell_m,
            domain_m,
            dt_s,
            velocity_keep,
            density_keep,
            temperature_keep,
            vorticity,
            emitter_centre,
            emitter_radius,
            emitter_rate,
            emitter_velocity,
            buoyancy,
            heat_lift,
            emitter_color,
            emitter_excess_k,
            ambient_k,
            turbulence,
            turbulence_seed,
            step_index,
            view,
            advection,
            top_boundary,
            sor_omega
        }),
    );
    check(
        "07-smoke/mg_tail.wgsl",
        "Level",
        rust_layout!(fogbook_smoke::multigrid::LevelUniform {
            n,
            coarse_n,
            h,
            omega,
            open_top,
            offset,
            coarse_offset,
            pad
        }),
    );
    check(
        "07-smoke/mg_tail.wgsl",
        "Tail",
        rust_layout!(fogbook_smoke::multigrid::TailUniform { count, pre_sweeps, post_sweeps, coarse_sweeps, levels }),
    );
}

/// The six-way cards' uniforms, bake and instances.
#[test]
fn the_six_way_uniforms_match_their_wgsl_layout() {
    check(
        "08-six-way-cards/cards_common.wgsl",
        "Cards",
        rust_layout!(fogbook_six_way::runtime::CardsUniform {
            grid,
            frame_uv,
            swizzle,
            absorption,
            emission,
            fades,
            anim,
            flags,
            counts
        }),
    );
    // The pads are WGSL's own (vec3 alignment): listed members only, the size covers them.
    check(
        "08-six-way-cards/bake.wgsl",
        "Bake",
        rust_layout!(fogbook_six_way::gpu::BakeUniform {
            n,
            glow_on,
            world_axis,
            positive,
            scale,
            ambient_k,
            glow_start_k,
            glow_full_k
        }),
    );
    check(
        "08-six-way-cards/prepare.wgsl",
        "CardInstance",
        rust_layout!(fogbook_six_way::instances::CardInstance { centre, right, up, flipbook }),
    );
    check(
        "08-six-way-cards/cards_common.wgsl",
        "PreparedCard",
        rust_layout!(fogbook_six_way::prepare::PreparedCard {
            plane,
            u_axis,
            v_axis,
            atlas,
            flipbook,
            light,
            positive,
            negative,
            sun,
            ground_sun,
            ambient
        }),
    );
}

/// The core's stand-in for the sky's uniform is as large as the sky's own.
#[test]
fn the_shared_sky_stand_in_fits_the_atmosphere_uniform() {
    assert_eq!(size_of::<fogbook_sky::AtmosphereUniform>() as u64, fogbook_core::shared_sky::ATMOSPHERE_UNIFORM_BYTES);
}

/// The core's stand-in for a missing fog chapter's uniform in the transparent-fog group is as
/// large as each of the three it stands in for.
#[test]
fn the_transparent_fog_stand_in_fits_each_fog_uniform() {
    use fogbook_core::transparent_fog::STAND_IN_UNIFORM_BYTES;
    for (name, size) in [
        ("FogParams", size_of::<fogbook_distance_fog::FogUniform>()),
        ("HeightFogParams", size_of::<fogbook_height_fog::HeightFogUniform>()),
        ("FroxelParams", size_of::<fogbook_froxel_fog::FroxelUniform>()),
    ] {
        assert!(size as u64 <= STAND_IN_UNIFORM_BYTES, "{name}: {size} bytes");
    }
}

/// The transparent-fog bindings sit at the group the core binds them at, with the layout's
/// bindings, and the uniforms at the bindings the core puts each chapter's buffer at.
#[test]
fn the_transparent_fog_bindings_are_at_the_core_group() {
    use fogbook_core::transparent_fog::TRANSPARENT_FOG_GROUP;
    let module = ShaderStore::discover().load("common/transparent_fog.wgsl").unwrap().validate().unwrap();
    let mut bindings: Vec<(u32, String)> = module
        .global_variables
        .iter()
        .filter_map(|(_, g)| Some((g.binding.as_ref()?, g)))
        .filter(|(b, _)| b.group == TRANSPARENT_FOG_GROUP)
        .map(|(b, g)| (b.binding, g.name.clone().unwrap_or_default()))
        .collect();
    bindings.sort();
    let names: Vec<(u32, &str)> = bindings.iter().map(|(b, n)| (*b, n.as_str())).collect();
    assert_eq!(names, [(0, "froxel"), (1, "scatter_tex"), (2, "integrated_tex"), (3, "fog"), (4, "height")]);
}

/// The cards' vertex stream: each member of `Instance` in cards.wgsl reads, at its location, the
/// `CardInstance` member of its name, as a vec4<f32>.
#[test]
fn the_card_vertex_stream_matches_its_wgsl_instance() {
    use fogbook_six_way::instances::CardInstance;
    use fogbook_six_way::runtime::INSTANCE_ATTRIBUTES;
    let rust: Vec<(String, u32, u64)> = [
        ("centre", offset_of!(CardInstance, centre)),
        ("right", offset_of!(CardInstance, right)),
        ("up", offset_of!(CardInstance, up)),
    ]
    .iter()
    .zip(INSTANCE_ATTRIBUTES)
    .map(|((name, offset), a)| {
        assert_eq!(a.format, wgpu::VertexFormat::Float32x4, "{name}");
        assert_eq!(a.offset, *offset as u64, "{name}: attribute offset vs CardInstance");
        (name.to_string(), a.shader_location, a.offset)
    })
    .collect();
    let module =
        store_for("08-six-way-cards/cards.wgsl").load("08-six-way-cards/cards.wgsl").unwrap().validate().unwrap();
    let (_, ty) = module.types.iter().find(|(_, t)| t.name.as_deref() == Some("Instance")).expect("struct Instance");
    let naga::TypeInner::Struct { members, .. } = &ty.inner else { panic!("Instance is no struct") };
    let wgsl: Vec<(String, u32, u64)> = members
        .iter()
        .map(|m| {
            let Some(naga::Binding::Location { location, .. }) = m.binding else { panic!("no location") };
            let name = m.name.clone().unwrap_or_default();
            let offset = rust.iter().find(|r| r.0 == name).map_or(u64::MAX, |r| r.2);
            (name, location, offset)
        })
        .collect();
    assert_eq!(rust, wgsl, "cards.wgsl Instance: (member, location, CardInstance offset), Rust vs WGSL");
}

/// The check catches a real mistake: a struct with a member moved fails it.
#[test]
fn the_layout_check_catches_a_moved_member() {
    #[repr(C)]
    struct Swapped {
        sun_dir: [f32; 4],
        camera_pos: [f32; 4],
    }
    let result = std::panic::catch_unwind(|| {
        check("common/frame.wgsl", "Frame", rust_layout!(Swapped { sun_dir, camera_pos }));
    });
    assert!(result.is_err());
    // A group of a nested uniform with two members swapped.
    #[repr(C)]
    struct SwappedForces {
        heat_lift: f32,
        buoyancy: f32,
        vorticity: f32,
        _pad0: f32,
    }
    let nested = std::panic::catch_unwind(|| {
        check(
            "07-smoke/common.wgsl",
            "SmokeForces",
            rust_layout!(SwappedForces { heat_lift, buoyancy, vorticity, _pad0 }),
        );
    });
    assert!(nested.is_err());
}

/// Constants from Rust are written once: no WGSL file of a chapter declares a constant its
/// prelude provides (it would shadow Rust's value, and naga rejects the redefinition), and every
/// `VIEW_*` a chapter's shader names is one of its views.
#[test]
fn no_shader_copies_a_constant_from_rust() {
    let store = ShaderStore::discover();
    let mut checked = 0;
    for chapter in registry::chapters() {
        let prelude: Vec<String> = chapter.shader_prelude().into_iter().map(|c| c.name).collect();
        let folders: Vec<&str> =
            chapter.shader_files().iter().filter_map(|f| f.rsplit_once('/').map(|(d, _)| d)).collect();
        let in_folders = |f: &&str| f.rsplit_once('/').is_some_and(|(d, _)| folders.contains(&d));
        for file in ShaderStore::all_files().filter(in_folders) {
            let text = store.read(file).unwrap();
            assert_prelude_respected(file, &text, &prelude, chapter.info().id);
            checked += 1;
        }
    }
    assert!(checked >= 9, "only {checked} files checked");
}

/// The core's constants reach every shader the same way, ahead of the chapter's: no WGSL file,
/// shared or a chapter's, declares one (it would be a second copy, and naga rejects the
/// redefinition), and no chapter gives one again.
#[test]
fn no_shader_copies_a_core_constant() {
    let core: Vec<String> = core_constants().into_iter().map(|c| c.name).collect();
    let store = ShaderStore::discover();
    let mut checked = 0;
    for file in ShaderStore::all_files() {
        assert_declares_none(file, &store.read(file).unwrap(), &core, "the core");
        checked += 1;
    }
    assert!(checked >= 60, "only {checked} files checked");
    for chapter in registry::chapters() {
        for c in chapter.shader_prelude() {
            assert!(!core.contains(&c.name), "chapter {} gives {}, which the core gives", chapter.info().id, c.name);
        }
    }
}

/// No `const` of `text` is one of `names`, which `whose` provides from Rust.
fn assert_declares_none(file: &str, text: &str, names: &[String], whose: &str) {
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        if let Some(rest) = code.trim().strip_prefix("const ") {
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            assert!(!names.contains(&name), "{file}: declares {name}, which {whose} provides from Rust");
        }
    }
}

fn assert_prelude_respected(file: &str, text: &str, prelude: &[String], id: &str) {
    assert_declares_none(file, text, prelude, &format!("chapter {id}"));
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (at, _) in code.match_indices("VIEW_") {
            if at > 0 && code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let name: String = code[at..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            assert!(prelude.contains(&name), "{file}: {name} is no view of chapter {id}");
        }
    }
}

/// The check fails on a copied constant and on a view the chapter does not have.
#[test]
fn the_prelude_check_catches_a_copy_and_an_unknown_view() {
    let prelude = vec!["VIEW_FINAL".to_string(), "TILE_PX".to_string()];
    let copy =
        std::panic::catch_unwind(|| assert_prelude_respected("x.wgsl", "const TILE_PX: u32 = 16u;", &prelude, "x"));
    assert!(copy.is_err());
    let unknown =
        std::panic::catch_unwind(|| assert_prelude_respected("x.wgsl", "if view == VIEW_GONE { }", &prelude, "x"));
    assert!(unknown.is_err());
    assert_prelude_respected("x.wgsl", "if view == VIEW_FINAL { let t = TILE_PX; }", &prelude, "x");
}

/// Full-screen passes are dispatched in `SCREEN_TILE`² tiles from Rust: every compute entry
/// point that writes the view target in 2D tiles must declare that workgroup size. (One-thread
/// passes and volume passes, with a depth above 1, are not tiled over the screen; nor are passes
/// that only import the view target with the scene inputs and write something else.)
#[test]
fn full_screen_passes_use_the_screen_tile() {
    use fogbook_core::frame::SCREEN_TILE;
    let store = ShaderStore::discover();
    let mut checked = 0;
    for chapter in registry::chapters() {
        for file in chapter.shader_files() {
            let module = store.with_constants(chapter.shader_prelude()).load(file).unwrap().validate().unwrap();
            let Some((view_out, _)) =
                module.global_variables.iter().find(|(_, g)| g.name.as_deref() == Some("view_out"))
            else {
                continue;
            };
            let info =
                naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
                    .validate(&module)
                    .unwrap();
            for (i, ep) in module.entry_points.iter().enumerate().filter(|(_, e)| e.stage == naga::ShaderStage::Compute)
            {
                let size = ep.workgroup_size;
                let writes = info.get_entry_point(i)[view_out].contains(naga::valid::GlobalUse::WRITE);
                if size == [1, 1, 1] || size[2] != 1 || !writes {
                    continue;
                }
                assert_eq!(size, [SCREEN_TILE, SCREEN_TILE, 1], "{file}: {}", ep.name);
                checked += 1;
            }
        }
    }
    assert!(checked >= 4, "only {checked} full-screen passes found");
}

/// The shared-sky bindings sit at the group the core binds them at, with the layout's bindings.
#[test]
fn the_shared_sky_bindings_are_at_the_core_group() {
    let module = ShaderStore::discover().load("common/sky_light.wgsl").unwrap().validate().unwrap();
    let mut bindings: Vec<u32> = module
        .global_variables
        .iter()
        .filter_map(|(_, g)| g.binding.as_ref())
        .filter(|b| b.group == fogbook_core::shared_sky::SKY_GROUP)
        .map(|b| b.binding)
        .collect();
    bindings.sort();
    assert_eq!(bindings, [0, 1, 2, 3, 4, 5], "group {} of common/sky_light.wgsl", fogbook_core::shared_sky::SKY_GROUP);
}

/// The medium's and the clouds' shadows sit at the groups the core binds them at, and the
/// scene pass that imports both has them apart.
#[test]
fn the_shadow_bindings_are_at_the_core_groups() {
    let store = ShaderStore::discover();
    let bindings = |file: &str, group: u32| {
        let module = store.load(file).unwrap().validate().unwrap();
        let mut b: Vec<u32> = module
            .global_variables
            .iter()
            .filter_map(|(_, g)| g.binding.as_ref())
            .filter(|b| b.group == group)
            .map(|b| b.binding)
            .collect();
        b.sort();
        b
    };
    use fogbook_core::cloud_shadow::CLOUD_SHADOW_GROUP;
    use fogbook_core::volume_shadow::VOLUME_SHADOW_GROUP;
    assert_eq!(bindings("common/volume_shadow.wgsl", VOLUME_SHADOW_GROUP), [0, 1, 2]);
    assert_eq!(bindings("common/cloud_shadow.wgsl", CLOUD_SHADOW_GROUP), [0, 1, 2]);
    assert_ne!(VOLUME_SHADOW_GROUP, CLOUD_SHADOW_GROUP);
    assert_eq!(bindings("core/scene.wgsl", VOLUME_SHADOW_GROUP), [0, 1, 2]);
}
