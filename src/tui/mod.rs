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
pub mod panels;
pub mod ui;

use std::io::stdout;
use std::path::Path;
use std::time::Duration;

use ratatui::backend::Backend;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;
use ratatui::Terminal;

pub use app::{App, AppOptions};

/// What an [`EventSource`] returns when asked for the next input event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Polled {
    /// An input event.
    Event(Event),
    /// Nothing arrived within the timeout.
    Timeout,
    /// The source has no more events: [`event_loop`] returns as if the user had quit.
    Closed,
}

/// Where [`event_loop`] reads its input: the terminal ([`TerminalEvents`]) or, in tests, a
/// scripted or random sequence of events (the soak test, `tests/soak.rs`).
pub trait EventSource {
    /// Waits up to `timeout` for the next event (`Duration::ZERO`: only what is already
    /// queued). `app` is the state after every earlier event was handled, so a test source can
    /// check invariants between events. Errors: reading the terminal failed.
    fn next_event(&mut self, app: &App, timeout: Duration) -> std::io::Result<Polled>;
}

/// The terminal's input events, read with crossterm.
#[derive(Debug, Default, Clone, Copy)]
pub struct TerminalEvents;

impl EventSource for TerminalEvents {
    fn next_event(&mut self, _app: &App, timeout: Duration) -> std::io::Result<Polled> {
        if event::poll(timeout)? {
            Ok(Polled::Event(event::read()?))
        } else {
            Ok(Polled::Timeout)
        }
    }
}

/// Opens `path` (a page, a directory of pages or a `ground-truth.json`) in the inspector and runs
/// until the user quits. Errors opening the input are returned before the terminal is touched.
pub fn run(path: &Path, opts: AppOptions) -> anyhow::Result<()> {
    let mut app = App::open(path, opts)?;
    if !std::io::IsTerminal::is_terminal(&stdout()) {
        anyhow::bail!(
            "the inspector needs a terminal, and standard output is not one; for batch use see \
             `cescope extract` and `cescope eval`"
        );
    }
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(stdout(), DisableMouseCapture);
        prev(info);
    }));
    let mut terminal = ratatui::try_init()
        .map_err(|e| anyhow::anyhow!("cannot start the inspector: no usable terminal ({e})"))?;
    let _ = execute!(stdout(), EnableMouseCapture);
    let result = event_loop(&mut terminal, &mut app, &mut TerminalEvents);
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

/// The inspector's main loop: draws `app` on `terminal` when something changed, feeds the
/// events of `events` to it (queued events are drained before the next frame), collects
/// background results, and returns when the app quits or the source is closed. A resize needs
/// no handling here: every draw first fits the frame to the backend's size. Errors: drawing or
/// reading events failed.
pub fn event_loop<B, S>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    events: &mut S,
) -> anyhow::Result<()>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
    S: EventSource + ?Sized,
{
    let mut dirty = true;
    while !app.quit {
        if dirty {
            terminal.draw(|f| ui::frame(f, app))?;
            dirty = false;
        }
        match events.next_event(app, Duration::from_millis(40))? {
            Polled::Closed => return Ok(()),
            Polled::Timeout => {}
            Polled::Event(ev) => {
                match ev {
                    Event::Key(k) => app.handle_key(k),
                    Event::Mouse(m) => app.handle_mouse(m),
                    Event::Resize(..) => {}
                    _ => continue,
                }
                dirty = true;
                // Drain queued input (fast key repeat) before the next frame.
                while !app.quit {
                    match events.next_event(app, Duration::ZERO)? {
                        Polled::Event(Event::Key(k)) => app.handle_key(k),
                        Polled::Event(Event::Mouse(m)) => app.handle_mouse(m),
                        Polled::Event(_) => {}
                        Polled::Timeout => break,
                        Polled::Closed => return Ok(()),
                    }
                }
            }
        }
        dirty |= app.poll_background();
    }
    Ok(())
}
