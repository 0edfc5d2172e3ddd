//! The book's measurements: the numbers a page quotes that no test checks — at full sizes, or
//! for a table — printed, so that a reader can reproduce them. Each is named; run one with
//! `cargo xtask measure NAME` (or `cargo run --release --example measure -- NAME`), or list
//! them with no name. The checks at test sizes are the test suite's; these only print.

// The tests' rendering helpers and the simulated plume, shared by path.
#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "../../tests/relight/plume.rs"]
mod plume;

mod froxel;
mod six_way;
mod sky;
mod smoke;

use std::process::ExitCode;

/// One measurement: its name, what it prints, the page that quotes it, and the function.
type Measurement = (&'static str, &'static str, &'static str, fn());

const MEASUREMENTS: &[Measurement] = &[
    (
        "sky-orders",
        "each order's share of the sky at full table size (minutes)",
        "ch03-sky-rendering",
        sky::orders_at_full_size,
    ),
    (
        "froxel-grid-error",
        "the grid against the reference march at 640×360",
        "ch04-froxel-fog",
        froxel::grid_against_the_reference,
    ),
    ("smoke-rotation-64", "advection errors after one revolution at 64³ (10 s)", "ch07-smoke", smoke::rotation_at_64),
    (
        "smoke-iterations-64",
        "each pressure solver's iterations to 1e-4 at 64³ (ten minutes)",
        "ch07-smoke-pressure",
        smoke::iterations_at_64,
    ),
    (
        "smoke-v-cycle-factors",
        "the V-cycle's factor per cycle at 32³ and 64³ (seconds)",
        "ch07-smoke-pressure",
        smoke::v_cycle_factors,
    ),
    (
        "six-way-thick-cells",
        "the in-cell integrals against the cell-centre rule (20 s)",
        "ch08-six-way-cards",
        six_way::thick_cells,
    ),
];

fn main() -> ExitCode {
    let names: Vec<String> = std::env::args().skip(1).collect();
    if names.is_empty() {
        println!("The book's measurements (cargo xtask measure NAME…, or `all`):");
        for (name, what, page, _) in MEASUREMENTS {
            println!("  {name:<22} {what} [{page}]");
        }
        return ExitCode::SUCCESS;
    }
    let mut chosen = Vec::new();
    for name in &names {
        match MEASUREMENTS.iter().filter(|m| name == "all" || m.0 == name).collect::<Vec<_>>() {
            found if !found.is_empty() => chosen.extend(found),
            _ => {
                let known: Vec<&str> = MEASUREMENTS.iter().map(|m| m.0).collect();
                eprintln!("error: no measurement `{name}`; known: {}", known.join(", "));
                return ExitCode::FAILURE;
            }
        }
    }
    for (name, what, _, run) in chosen {
        println!("== {name}: {what}");
        run();
    }
    ExitCode::SUCCESS
}
