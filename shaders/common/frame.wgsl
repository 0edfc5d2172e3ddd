// Frame inputs shared by every pass: camera, sun, viewport and time.
// Mirrors `fogbook_core::frame::FrameUniform` (Rust); keep the two in the same order.
// Conventions: right-handed, +Y up, metres; depth 0 (near) .. 1 (far); `sun_dir` points
// from the scene towards the sun.

// ANCHOR: frame
struct Frame {
    view_proj: mat4x4<f32>,
    inv_view_proj: mat4x4<f32>,
    sun_view_proj: mat4x4<f32>,
    camera_pos: vec4<f32>,   // xyz: camera position (m); w: unused
    sun_dir: vec4<f32>,      // xyz: unit vector towards the sun; w: sun illuminance scale
    sun_color: vec4<f32>,    // rgb: sun radiance colour (linear); w: unused
    ambient: vec4<f32>,      // rgb: ambient sky colour (linear); w: unused
    viewport: vec4<f32>,     // width, height, 1/width, 1/height (pixels)
    time_s: f32,             // simulated time (s)
    frame_index: u32,        // frames since the start (wraps at 2^32)
    sky_distance_m: f32,     // distance written for pixels where no surface was hit (m)
    exposure_ev: f32,        // exposure for colour views (EV)
    // Camera basis for view rays: forward (unit), and right / up scaled so that
    // forward + ndc.x·right + ndc.y·up passes through the pixel. More precise than unprojecting
    // through `inv_view_proj`, whose far-plane point loses digits in f32.
    cam_forward: vec4<f32>,
    cam_right: vec4<f32>,
    cam_up: vec4<f32>,
    // For stages that reuse earlier frames (temporal reprojection): last frame's view_proj
    // (this frame's where history is invalid), this frame's Halton (2,3) sub-pixel offset in
    // pixels (−½..½; the scene itself is never jittered), whether history may be used, and a
    // counter of invalidations (resize, shader reload, camera cut, parameter change).
    prev_view_proj: mat4x4<f32>,
    jitter_px: vec2<f32>,
    history_valid: u32,
    history_epoch: u32,
    // Published by the chapters of the stack for each other (Chapter::publish): where the analytic
    // height fog takes over from the froxel grid (m; 0 without froxel fog), and the height fog's
    // two layers (density 1/m, falloff 1/m, height m; w: 1 when the height fog is present).
    volumetric_far_m: f32,
    light_count: u32,        // live entries of `lights`
    jitter_depth: f32,       // this frame's depth offset, −½..½ (Halton base 5 at the jitter's index)
    height_layers: array<vec4<f32>, 2>,
    lights: array<LocalLight, MAX_LOCAL_LIGHTS>,
}
// ANCHOR_END: frame

// ANCHOR: local_light
// A point or spot light of the scene (fogbook_core::lights, which also gives MAX_LOCAL_LIGHTS
// and LIGHT_RADIUS_M, the bulb's radius: irradiance is I / max(d, r)²).
struct LocalLight {
    position: vec4<f32>,  // xyz: position (m); w: range (m)
    intensity: vec4<f32>, // rgb: intensity × colour (rel./sr); w: cos of the inner cone
    spot: vec4<f32>,      // xyz: unit direction of the spot; w: cos of the outer cone (−2: point light)
}

// Irradiance per unit intensity at p (1/m²): inverse square with Karis's (2013) window, which
// reaches 0 at the range, times the spot's cone ramp. As `Light::attenuation` (lights.rs).
fn light_attenuation(light: LocalLight, p: vec3<f32>) -> f32 {
    let to_point = p - light.position.xyz;
    let d = length(to_point);
    let x = d / light.position.w;
    let w = clamp(1.0 - x * x * x * x, 0.0, 1.0);
    let r = max(d, LIGHT_RADIUS_M);
    var a = w * w / (r * r);
    if light.spot.w > -1.5 {
        let cos_angle = select(1.0, dot(to_point, light.spot.xyz) / d, d > 0.0);
        let t = clamp((cos_angle - light.spot.w) / max(light.intensity.w - light.spot.w, 1e-4), 0.0, 1.0);
        a *= t * t;
    }
    return a;
}
// ANCHOR_END: local_light

// World-space unit view direction through the centre of pixel `pixel`.
fn view_ray_dir(frame: Frame, pixel: vec2<f32>) -> vec3<f32> {
    let uv = (pixel + vec2(0.5)) * frame.viewport.zw;
    let ndc = vec2(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0);
    return normalize(frame.cam_forward.xyz + ndc.x * frame.cam_right.xyz + ndc.y * frame.cam_up.xyz);
}
