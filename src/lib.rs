//! The fogbook app: one viewer and CLI hosting every chapter through the registry.

pub mod cli;
pub mod commands;
pub mod registry;
pub mod software_driver;
pub mod state;
pub mod viewer;
