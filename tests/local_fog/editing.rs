//! The volume list as `--set`, presets and the viewer's panel edit it.

use fogbook_core::params::set_by_name;
use fogbook_local_fog::LocalFogParams;

/// The list's editing operations, as the viewer's panel and `--set` use them: `volume_count`
/// grows the list with new default volumes and cuts it; presets keep the list; `--set` reaches
/// volume i by `volumes[i].field`, through a stack too.
#[test]
fn the_list_grows_shrinks_and_round_trips() {
    use fogbook_core::params::DynParameters;
    use fogbook_local_fog::VolumeParams;
    let mut p = LocalFogParams::default();
    set_by_name(&mut p, "volume_count", "5").unwrap();
    assert_eq!(p.volumes.len(), 5);
    assert_eq!(p.volumes[4], VolumeParams::default());
    set_by_name(&mut p, "volumes[4].density", "0.7").unwrap();
    set_by_name(&mut p, "volumes[4].shape", "cylinder").unwrap();
    let text = p.to_ron();
    let mut q = LocalFogParams { volumes: vec![], ..Default::default() };
    q.load_ron(&text).unwrap();
    assert_eq!(q, p);
    assert_eq!(q.fog_volumes().len(), 5);
    set_by_name(&mut q, "volume_count", "256").unwrap();
    assert_eq!(q.fog_volumes().len(), 256);
    set_by_name(&mut q, "volume_count", "1").unwrap();
    assert_eq!(q.volumes, p.volumes[..1]);
    let mut setup = fogbook::state::Setup::new("froxel-fog,local-fog").unwrap();
    setup.set("local-fog.volumes[2].density=0.05").unwrap();
    setup.set("volumes[1].phase_g=-0.3").unwrap();
    let e = setup.set("local-fog.volumes[7].density=0.05").unwrap_err();
    assert!(e.to_string().contains("volumes[7].density"), "{e}");
}

/// The viewer's panel takes the volumes as a list: it draws the count, the selected volume's
/// fields only (one `x_m`, not one per volume), and its Delete button removes the selected volume.
#[test]
fn the_panel_edits_the_volumes_as_a_list() {
    use egui::epaint::Shape;
    fn texts(shapes: &[Shape], out: &mut Vec<(String, egui::Pos2)>) {
        for s in shapes {
            match s {
                Shape::Text(t) => out.push((t.galley.text().to_string(), t.pos + t.galley.rect.center().to_vec2())),
                Shape::Vec(v) => texts(v, out),
                _ => {}
            }
        }
    }
    let ctx = egui::Context::default();
    let mut params = LocalFogParams::default();
    let frame = |events: Vec<egui::Event>, params: &mut LocalFogParams| {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(600.0, 2000.0))),
            events,
            ..Default::default()
        };
        let out = ctx.run_ui(input, |ui| {
            fogbook_core::ui::param_panel(ui, params);
        });
        let mut found = Vec::new();
        texts(&out.shapes.into_iter().map(|c| c.shape).collect::<Vec<_>>(), &mut found);
        found
    };
    frame(vec![], &mut params);
    let shown = frame(vec![], &mut params);
    let count = |name: &str| shown.iter().filter(|(t, _)| t == name).count();
    assert_eq!(count("3 volumes (at most 256)"), 1, "{shown:?}");
    assert_eq!(count("x_m"), 1, "only the selected volume's fields");
    assert_eq!(count("volume 0"), 1);
    let at = shown.iter().find(|(t, _)| t == "Delete").expect("a Delete button").1;
    let click = |pressed| egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: Default::default(),
    };
    frame(vec![egui::Event::PointerMoved(at), click(true)], &mut params);
    frame(vec![click(false)], &mut params);
    assert_eq!(params.volumes.len(), 2, "Delete removed the selected volume");
    // (Compared by shape and place: drawing egui's colour pickers rounds the colours.)
    let first = &params.volumes[0];
    assert_eq!((first.shape, first.x_m, first.z_m), (fogbook_local_fog::Shape::Ellipsoid, 8.0, -30.0), "volume 0 went");
}
