//! The inspector: a full-screen terminal app (ratatui + crossterm).
//!
//! [`run`] owns the terminal: it enters raw mode and the alternate screen, enables mouse
//! capture, and restores all three on every exit path — normal quit, error, and panic (a panic
//! hook disables mouse capture and then lets ratatui's hook leave the alternate screen and raw
//! mode before the message is printed). State and drawing live in [`app`] and [`ui`], which the
//! snapshot tests drive through the same functions with a `TestBackend`.

pub mod annotate;
pub mod app;
pub mod bench;
pub mod display;
pub mod highlight;
pub mod keymap;
pub mod ui;

use std::io::stdout;
use std::path::Path;
use std::time::Duration;

use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;

pub use app::{App, AppOptions};

/// Opens `path` (a page, a directory of pages or a `ground-truth.json`) in the inspector and runs
/// until the user quits. Errors opening the input are returned before the terminal is touched.
pub fn run(path: &Path, opts: AppOptions) -> anyhow::Result<()> {
    let mut app = App::open(path, opts)?;
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(stdout(), DisableMouseCapture);
        prev(info);
    }));
    let mut terminal = ratatui::try_init()?;
    let _ = execute!(stdout(), EnableMouseCapture);
    let result = event_loop(&mut terminal, &mut app);
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

fn event_loop(terminal: &mut ratatui::DefaultTerminal, app: &mut App) -> anyhow::Result<()> {
    let mut dirty = true;
    while !app.quit {
        if dirty {
            terminal.draw(|f| ui::draw(f, app))?;
            dirty = false;
        }
        if event::poll(Duration::from_millis(40))? {
            match event::read()? {
                Event::Key(k) => app.handle_key(k),
                Event::Mouse(m) => app.handle_mouse(m),
                Event::Resize(..) => {}
                _ => continue,
            }
            dirty = true;
            // Drain queued input (fast key repeat) before the next frame.
            while event::poll(Duration::ZERO)? {
                match event::read()? {
                    Event::Key(k) => app.handle_key(k),
                    Event::Mouse(m) => app.handle_mouse(m),
                    _ => {}
                }
                if app.quit {
                    break;
                }
            }
        }
        dirty |= app.poll_background();
    }
    Ok(())
}
