//! Keyboard and mouse: camera movement and the viewer's keys.
//!
//! Keys: Esc quit · P pause/resume · N or . step one frame · F1 hide/show the UI ·
//! V / Shift+V next/previous view · Tab orbit/fly camera · R reset the time ·
//! arrows turn (orbit: circle the pivot) · W A S D Q E move (fly) · Shift faster.

use fogbook_core::camera::CameraInput;
use winit::event::{ElementState, KeyEvent, MouseButton, MouseScrollDelta, WindowEvent};
use winit::keyboard::{Key, KeyCode, NamedKey, PhysicalKey};

/// A key press that is a command rather than movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Quit,
    TogglePause,
    Step,
    ToggleUi,
    NextView,
    PreviousView,
    ToggleCameraMode,
    ResetTime,
}

#[derive(Default)]
pub struct InputState {
    held: std::collections::HashSet<KeyCode>,
    dragging: bool,
    last_cursor: Option<(f64, f64)>,
    drag: [f32; 2],
    scroll: f32,
    shift: bool,
}

impl InputState {
    /// Feeds one window event (already refused by egui when egui wanted it).
    pub fn on_event(&mut self, event: &WindowEvent) -> Option<Action> {
        match event {
            WindowEvent::KeyboardInput { event, .. } => return self.on_key(event),
            WindowEvent::MouseInput { state, button: MouseButton::Left | MouseButton::Right, .. } => {
                self.dragging = *state == ElementState::Pressed;
            }
            WindowEvent::CursorMoved { position, .. } => {
                if let (true, Some((x, y))) = (self.dragging, self.last_cursor) {
                    self.drag[0] += (position.x - x) as f32;
                    self.drag[1] += (position.y - y) as f32;
                }
                self.last_cursor = Some((position.x, position.y));
            }
            WindowEvent::MouseWheel { delta, .. } => {
                self.scroll += match delta {
                    MouseScrollDelta::LineDelta(_, y) => *y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
            }
            WindowEvent::ModifiersChanged(m) => self.shift = m.state().shift_key(),
            WindowEvent::Focused(false) => self.held.clear(),
            _ => {}
        }
        None
    }

    fn on_key(&mut self, event: &KeyEvent) -> Option<Action> {
        let PhysicalKey::Code(code) = event.physical_key else { return None };
        if event.state == ElementState::Released {
            self.held.remove(&code);
            return None;
        }
        self.held.insert(code);
        if event.repeat {
            return None;
        }
        match (&event.logical_key, code) {
            (Key::Named(NamedKey::Escape), _) => Some(Action::Quit),
            (Key::Named(NamedKey::F1), _) => Some(Action::ToggleUi),
            (Key::Named(NamedKey::Tab), _) => Some(Action::ToggleCameraMode),
            (_, KeyCode::KeyP) => Some(Action::TogglePause),
            (_, KeyCode::KeyN) | (_, KeyCode::Period) => Some(Action::Step),
            (_, KeyCode::KeyR) => Some(Action::ResetTime),
            (_, KeyCode::KeyV) if self.shift => Some(Action::PreviousView),
            (_, KeyCode::KeyV) => Some(Action::NextView),
            _ => None,
        }
    }

    /// This frame's camera input; clears the accumulated drag and scroll.
    pub fn take_camera_input(&mut self) -> CameraInput {
        let axis =
            |pos: KeyCode, neg: KeyCode| (self.held.contains(&pos) as i32 - self.held.contains(&neg) as i32) as f32;
        let input = CameraInput {
            drag_pixels: self.drag,
            scroll_lines: self.scroll,
            move_axes: [
                axis(KeyCode::KeyW, KeyCode::KeyS),
                axis(KeyCode::KeyD, KeyCode::KeyA),
                axis(KeyCode::KeyE, KeyCode::KeyQ),
            ],
            turn_axes: [axis(KeyCode::ArrowLeft, KeyCode::ArrowRight), axis(KeyCode::ArrowUp, KeyCode::ArrowDown)],
            fast: self.shift,
        };
        self.drag = [0.0; 2];
        self.scroll = 0.0;
        input
    }
}
