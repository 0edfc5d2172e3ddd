//! Bad input: nothing non-finite reaches the frame; bad values and density files are refused.

use crate::common::*;
use crate::{CAMERA, smoke_file};
use fogbook_core::Chapter;
use fogbook_core::params::set_by_name;
use fogbook_local_fog::LocalFog;

/// Nothing non-finite reaches the frame: every view of the default scene, from outside and from
/// inside a volume, and of a volume at the parameters' limits (densest, steepest falloff, 1 km
/// long, turned on end 100–1100 m up, so that it reaches 500 m below its reference height, where
/// its density would be e^5000 times larger), seen from below, alone and injected into chapter
/// 4's froxels.
#[test]
fn no_view_writes_a_non_finite_value() {
    const EXTREME: &[&str] = &[
        "volumes[0].pitch_deg=90",
        "volumes[0].size_z_m=1000",
        "volumes[0].falloff=10",
        "volumes[0].density=10",
        "volumes[0].y_m=600",
    ];
    const BELOW: &str = "-6,2,-22,0,85,60";
    for view in fogbook_local_fog::VIEWS {
        for (camera, sets) in [(CAMERA, &[][..]), ("-6,1,-22,0,0,60", &[][..]), (BELOW, EXTREME)] {
            for fade in ["volumes[0].edge_fade_m=0", "volumes[0].edge_fade_m=1"] {
                let sets: Vec<&str> = sets.iter().copied().chain([fade]).collect();
                let img = render("local-fog", view.name, &sets, Some(camera), [64, 36]).raw;
                let (_, _, non_finite) = img.red_stats();
                assert_eq!(non_finite, 0, "{} from {camera} with {sets:?}", view.name);
            }
        }
    }
    let grid = ["froxel-fog.grid_width=64", "froxel-fog.grid_height=36", "froxel-fog.grid_depth=32"];
    for view in ["final", "froxel-fog/density-slice", "froxel-fog/inscattering"] {
        let sets: Vec<&str> = EXTREME.iter().chain(&grid).copied().collect();
        let img = render("froxel-fog,local-fog", view, &sets, Some(BELOW), [64, 36]).raw;
        assert_eq!(img.red_stats().2, 0, "{view} with chapter 4");
    }
}

/// A NaN, zero or negative size, a NaN position or 300 volumes is refused with a message naming
/// the parameter and the value kept; so is a list of 300 volumes, or one with a NaN or a zero
/// size, given whole (`set_volumes`) or in a preset, keeping the volumes in use; a volume past
/// the list's end is refused too.
#[test]
fn bad_input_is_refused_and_the_state_kept() {
    use fogbook_core::params::DynParameters;
    use fogbook_local_fog::VolumeParams;
    // ANCHOR: bad_input_test
    let mut chapter = LocalFog::new();
    let before = chapter.params.clone();
    for (name, value) in [
        ("volumes[0].size_x_m", "0"),
        ("volumes[0].size_y_m", "-2"),
        ("volumes[1].size_z_m", "NaN"),
        ("volumes[2].x_m", "nan"),
        ("volumes[3].x_m", "1"),
        ("volume_count", "300"),
    ] {
        let e = set_by_name(&mut chapter.params, name, value).expect_err(value);
        eprintln!("{name}={value}: {e}");
        assert!(e.to_string().contains(name), "the message names the parameter: {e}");
    }
    assert_eq!(chapter.params, before, "every refused value left the parameters as they were");

    let kept = chapter.params.volumes.clone();
    let e = chapter.set_volumes(vec![kept[0].clone(); 300]).unwrap_err();
    assert!(e.contains("300"), "{e}");
    let nan = VolumeParams { y_m: f32::NAN, ..kept[0].clone() };
    let flat = VolumeParams { size_z_m: 0.0, ..kept[1].clone() };
    for bad in [nan, flat] {
        let e = chapter.set_volumes(vec![kept[2].clone(), bad]).unwrap_err();
        eprintln!("{e}");
        assert!(e.contains("volumes[1]"), "the message names the volume: {e}");
        assert_eq!(chapter.status(), Some(e));
        assert_eq!(chapter.params.volumes, kept, "the volumes in use are kept");
    }
    // ANCHOR_END: bad_input_test
    // The same in a preset: 300 volumes, a NaN.
    let mut too_many = chapter.params.clone();
    too_many.volumes = vec![kept[0].clone(); 300];
    let text = too_many.to_ron();
    let e = chapter.params.load_ron(&text).unwrap_err();
    assert!(e.to_string().contains("volume_count = 300"), "{e}");
    let text = before.to_ron().replacen("y_m: 1.25", "y_m: NaN", 1);
    assert!(text.contains("NaN"));
    let e = chapter.params.load_ron(&text).unwrap_err();
    assert!(e.to_string().contains("volumes[0].y_m"), "{e}");
    assert_eq!(chapter.params.volumes, kept);
    // A good list replaces them and clears the message.
    chapter.set_volumes(vec![kept[2].clone()]).unwrap();
    assert_eq!(chapter.volumes(), vec![kept[2].to_fog_volume()]);
    assert_eq!(chapter.status(), None);
}

// ANCHOR: bad_file_test
/// A missing file, a truncated one, one with the wrong magic, one holding a NaN, and five
/// distinct files: each is
/// refused with one message that says what is wrong, and the volume list in use is kept — given
/// whole (`set_volumes`) or edited in place (`--set`, the panel, a preset: `sync_files`).
#[test]
fn bad_density_files_are_refused_and_the_state_kept() {
    use fogbook_local_fog::{DensitySource, VolumeParams};
    let good = smoke_file("good-4.fbvol", 4);
    let bytes = std::fs::read(&good).unwrap();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let truncated = dir.join("truncated-4.fbvol");
    std::fs::write(&truncated, &bytes[..bytes.len() - 7]).unwrap();
    let magic = dir.join("magic-4.fbvol");
    std::fs::write(&magic, [b"NOTAVOL\0".as_slice(), &bytes[8..]].concat()).unwrap();
    let nan = dir.join("nan-4.fbvol");
    std::fs::write(&nan, [&bytes[..bytes.len() - 4], &f32::NAN.to_le_bytes()].concat()).unwrap();
    let missing = dir.join("no-such-file.fbvol");
    let with_file = |path: &std::path::Path| VolumeParams {
        density_source: DensitySource::File,
        density_file: path.display().to_string(),
        ..VolumeParams::default()
    };
    let mut chapter = LocalFog::new();
    chapter.set_volumes(vec![with_file(&good), VolumeParams::default()]).unwrap();
    let kept = chapter.params.volumes.clone();
    assert_eq!(chapter.density_files(), vec![good.display().to_string()]);
    let five: Vec<VolumeParams> = (0..5).map(|i| with_file(&dir.join(format!("f{i}.fbvol")))).collect();
    for (list, expect) in [
        (vec![with_file(&missing)], "no-such-file.fbvol"),
        (vec![with_file(&truncated)], "truncated"),
        (vec![with_file(&magic)], "magic"),
        (vec![with_file(&nan)], "non-finite"),
        (five, "at most 4 textures"),
    ] {
        let e = chapter.set_volumes(list).unwrap_err();
        assert!(e.contains(expect) && e.contains("keeping the 2 volumes in use"), "{e}");
        assert_eq!(chapter.status(), Some(e));
        assert_eq!(chapter.params.volumes, kept, "the volumes in use are kept");
        assert_eq!(chapter.density_files(), vec![good.display().to_string()], "and their grid");
    }
    // A NaN in the texture's parameters is refused by their ranges, the value kept.
    let e = set_by_name(&mut chapter.params, "volumes[0].noise_frequency", "NaN").unwrap_err();
    assert!(e.to_string().contains("volumes[0].noise_frequency"), "{e}");
    assert_eq!(chapter.params.volumes, kept);
    // Edited in place: the second volume switched to a file with no path, then to a bad one.
    set_by_name(&mut chapter.params, "volumes[1].density_source", "file").unwrap();
    chapter.sync_files();
    let e = chapter.status().unwrap();
    assert!(e.contains("density_file is empty"), "{e}");
    assert_eq!(chapter.params.volumes, kept);
    chapter.params.volumes[1] = with_file(&truncated);
    chapter.sync_files();
    assert!(chapter.status().unwrap().contains("truncated"));
    assert_eq!(chapter.params.volumes, kept);
    // A good change goes through and clears the message.
    chapter.params.volumes[1] = with_file(&good);
    chapter.sync_files();
    assert_eq!(chapter.status(), None);
    assert_eq!(chapter.params.volumes[1].density_file, good.display().to_string());
}
// ANCHOR_END: bad_file_test
