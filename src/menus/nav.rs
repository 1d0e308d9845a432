//! Keyboard navigation for egui menus: arrows or Tab move, Enter or Space chooses, as the
//! reference Ataxx program's menu did. The mouse works as usual.

use bevy_egui::egui;

/// Keys read from egui's input for one frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NavKeys {
    pub up: bool,
    pub down: bool,
    pub left: bool,
    pub right: bool,
    pub choose: bool,
    pub back: bool,
}

impl NavKeys {
    pub fn read(ui: &egui::Ui) -> NavKeys {
        // Text fields keep their keys: no menu navigation while one has focus.
        if ui.ctx().memory(|m| m.focused().is_some()) && ui.ctx().egui_wants_keyboard_input() {
            return NavKeys {
                back: ui.input(|i| i.key_pressed(egui::Key::Escape)),
                ..Default::default()
            };
        }
        ui.input(|i| NavKeys {
            up: i.key_pressed(egui::Key::ArrowUp)
                || (i.key_pressed(egui::Key::Tab) && i.modifiers.shift),
            down: i.key_pressed(egui::Key::ArrowDown)
                || (i.key_pressed(egui::Key::Tab) && !i.modifiers.shift),
            left: i.key_pressed(egui::Key::ArrowLeft),
            right: i.key_pressed(egui::Key::ArrowRight),
            choose: i.key_pressed(egui::Key::Enter) || i.key_pressed(egui::Key::Space),
            back: i.key_pressed(egui::Key::Escape),
        })
    }
}

/// Moves `selected` up or down over the enabled entries.
pub fn step(selected: &mut usize, enabled: &[bool], keys: NavKeys) {
    if enabled.iter().all(|e| !e) {
        return;
    }
    let n = enabled.len();
    let dir: isize = if keys.down {
        1
    } else if keys.up {
        -1
    } else {
        0
    };
    if !enabled[*selected % n] && dir == 0 {
        *selected = enabled.iter().position(|&e| e).unwrap_or(0);
    }
    if dir != 0 {
        let mut i = *selected as isize;
        for _ in 0..n {
            i = (i + dir).rem_euclid(n as isize);
            if enabled[i as usize] {
                break;
            }
        }
        *selected = i as usize;
    }
}

/// A column of large buttons; returns the index chosen by click or by keyboard.
pub fn button_list(
    ui: &mut egui::Ui,
    items: &[(String, bool)],
    selected: &mut usize,
    keys: NavKeys,
) -> Option<usize> {
    let enabled: Vec<bool> = items.iter().map(|i| i.1).collect();
    step(selected, &enabled, keys);
    let style = ui.style().clone();
    quiet_hover(ui.style_mut());
    let mut chosen = None;
    for (i, (label, on)) in items.iter().enumerate() {
        let text = egui::RichText::new(label.as_str()).size(20.0);
        let button = egui::Button::new(text)
            .selected(i == *selected)
            .min_size(egui::vec2(240.0, 36.0));
        let resp = ui.add_enabled(*on, button);
        if resp.clicked() {
            *selected = i;
            chosen = Some(i);
        }
        // The mouse takes the selection only when it moves, so the keys still work under it.
        if resp.hovered() && *on && ui.input(|i| i.pointer.delta() != egui::Vec2::ZERO) {
            *selected = i;
        }
    }
    ui.set_style(style);
    if keys.choose && enabled.get(*selected).copied().unwrap_or(false) {
        chosen = Some(*selected);
    }
    chosen
}

/// A list's buttons look the same hovered as not: only the selection is highlighted (a
/// pointer resting on another entry, after the keys moved the selection, framed it as if it
/// were a second selection). Moving the pointer onto an entry selects it.
fn quiet_hover(style: &mut egui::Style) {
    style.visuals.widgets.hovered = style.visuals.widgets.inactive;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hovered_entry_looks_like_an_unselected_one() {
        let mut style = egui::Style::default();
        assert_ne!(
            style.visuals.widgets.hovered.bg_stroke,
            style.visuals.widgets.inactive.bg_stroke
        );
        quiet_hover(&mut style);
        let w = &style.visuals.widgets;
        assert_eq!(w.hovered.bg_stroke, w.inactive.bg_stroke);
        assert_eq!(w.hovered.weak_bg_fill, w.inactive.weak_bg_fill);
        assert_eq!(w.hovered.fg_stroke, w.inactive.fg_stroke);
    }

    #[test]
    fn step_skips_disabled_and_wraps() {
        let enabled = [true, false, true, true];
        let mut s = 0;
        let down = NavKeys {
            down: true,
            ..Default::default()
        };
        let up = NavKeys {
            up: true,
            ..Default::default()
        };
        step(&mut s, &enabled, down);
        assert_eq!(s, 2);
        step(&mut s, &enabled, down);
        assert_eq!(s, 3);
        step(&mut s, &enabled, down);
        assert_eq!(s, 0);
        step(&mut s, &enabled, up);
        assert_eq!(s, 3);
        let mut t = 1;
        step(&mut t, &enabled, NavKeys::default());
        assert_eq!(
            t, 0,
            "a disabled selection moves to the first enabled entry"
        );
    }
}
