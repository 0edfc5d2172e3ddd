//! The snapshot comparison notices small changes to a volume.

use crate::common::*;

/// The snapshot comparison must notice the volumes breaking, each change in the view that shows
/// it: the `final` image with a 10 % denser mist or the mist's height falloff ignored (its
/// bottom's density everywhere), the `optical-depth` view with the smoke column turned 5°, and
/// the `inscattering` view with the sphere's phase g 0.4 instead of 0.5. (In `final` the column
/// turned 5° moves only 0.14 % of the pixels by more than 2 steps: grey smoke over a grey sky.)
#[test]
fn snapshot_comparison_rejects_small_changes_to_a_volume() {
    let tolerance = fogbook::registry::find("local-fog").unwrap().book().snapshot_tolerance;
    for (view, change) in [
        ("final", "volumes[0].density=0.66"),
        ("final", "volumes[0].falloff=0"),
        ("optical-depth", "volumes[2].roll_deg=15"),
        ("inscattering", "volumes[1].phase_g=0.4"),
    ] {
        let base = render("local-fog", view, &[] as &[&str], None, SNAPSHOT_SIZE).display;
        let changed = render("local-fog", view, &[change], None, SNAPSHOT_SIZE).display;
        let d = image_diff(&base, &changed, tolerance);
        eprintln!("{view} with {change}: {d:?}");
        assert!(!d.passes, "{view} with {change} passes the snapshot comparison: {d:?}");
    }
}
