// The smoke's parameter block, its types alone: each file that reads the block binds it where
// its group has room — common.wgsl at binding 0 of group 2 for the smoke's passes, medium.wgsl
// at the media layer's place for a simulated grid's field (fogbook_core::media::point).
// Grouped by meaning; uniform.rs holds its Rust twin and says why it is nested, and
// tests/contracts.rs holds every member of both to the same byte offset.
struct SmokeParams {
    grid: SmokeGrid,
    solver: SmokeSolver,
    forces: SmokeForces,
    emitter: SmokeEmitter,
    sphere: SmokeSphere,
    cuboid: SmokeCuboid,
    optics: SmokeOptics,
    light: SmokeLight,
    display: SmokeDisplay,
}

// The box in the world, its cells and the step.
struct SmokeGrid {
    box_min: vec3<f32>, // world position of the box's corner (m)
    n: f32,             // cells per side
    cell_m: f32,        // cell size h (m)
    box_m: f32,         // box size (m)
    dt_s: f32,          // time step (s)
    step_index: u32,    // steps taken: the emitter noise's clock
}

// How a step integrates: what each field keeps, the projection, the scheme and the top wall.
struct SmokeSolver {
    velocity_keep: f32,           // velocity kept per step, 1 / (1 + k_u dt)
    density_keep: f32,            // density kept per step, 1 / (1 + k_ρ dt)
    temperature_keep: f32,        // T − T_amb kept per step, exp(−k_T dt) (Newtonian cooling)
    pressure_gradient_scale: f32, // multiplier on ∇q when projecting (1: exact)
    advection: u32,               // 0 semi-Lagrangian, 1 MacCormack (maccormack.wgsl)
    top_boundary: u32,            // 0 closed, 1 open (outflow at y = 1)
    _pad0: u32,
    _pad1: u32,
}

// The body forces.
struct SmokeForces {
    buoyancy: f32,  // m/s² per unit density
    heat_lift: f32, // β, m/s² per K above ambient
    vorticity: f32, // vorticity confinement ε
    _pad0: f32,
}

// The source: where it is, what it adds, and its noise.
struct SmokeEmitter {
    centre: vec3<f32>,   // box coordinates 0..1
    radius: f32,         // box units
    velocity: vec3<f32>, // velocity inside the emitter (m/s)
    rate: f32,           // density added per s
    color: vec3<f32>,    // smoke colour
    excess_k: f32,       // the emitter's T − T_amb (K)
    turbulence: f32,     // noise, 0..1
    turbulence_seed: u32,
}

// The obstacles (obstacles.wgsl): on when `enabled` is 1; positions and sizes in box units.
struct SmokeSphere {
    centre: vec3<f32>,
    radius: f32,
    velocity: vec3<f32>, // m/s
    enabled: u32,
}

struct SmokeCuboid {
    centre: vec3<f32>,
    enabled: u32,
    half: vec3<f32>,     // half size
    velocity: vec3<f32>, // m/s
}

// What the smoke does to light: extinction and glow.
struct SmokeOptics {
    extinction_tint: vec3<f32>, // extinction per colour channel, relative to `extinction`
    extinction: f32,            // extinction per unit density (1/m)
    emission: f32,              // glow at full temperature (0: none)
    emission_start_k: f32,      // glow ramp: starts here (K)…
    emission_full_k: f32,       // …and is full here (K)
    ambient_k: f32,             // T_amb (K): the fields hold T − T_amb
}

// The light that reaches the smoke and how it scatters.
struct SmokeLight {
    towards_sun: vec3<f32>,   // unit vector towards the sun
    sun_intensity: f32,
    ground_albedo: vec3<f32>, // the scene's ground, lit by sun and sky, lights the smoke from below
    ambient_scale: f32,       // multiplier of the sky and ground light
    phase_g: f32,             // Henyey–Greenstein asymmetry g
    octaves: u32,             // multiple-scattering octaves (1: single scattering)
    octave_extinction: f32,   // a: octave i sees extinction × a^i
    octave_contribution: f32, // b: octave i contributes b^i
    octave_eccentricity: f32, // c: octave i has asymmetry g × c^i
    shadow_steps: u32,        // the light volume's march towards the sun
}

// What the display pass shows; the light volume depends on none of it.
struct SmokeDisplay {
    view: u32,           // the debug view
    field_display: u32,  // 0 slice, 1 max projection
    slice_axis: u32,     // 0 x, 1 y, 2 z
    slice_position: f32, // 0..1
    march_steps: u32,    // the view ray's march
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}
