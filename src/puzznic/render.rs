//! Showing boards and plans: plain text, ANSI colours for a terminal, and
//! one self-contained HTML page animating a plan.

use super::level::{Board, Cell};
use super::simulator::Frame;
use std::fmt::Write as _;

/// Colours of the kinds, cycled when a level has more kinds: (ANSI 256
/// colour index, CSS colour).
const PALETTE: [(u8, &str); 12] = [
    (196, "#e53935"),
    (33, "#1e88e5"),
    (40, "#43a047"),
    (226, "#fdd835"),
    (129, "#8e24aa"),
    (208, "#fb8c00"),
    (51, "#00acc1"),
    (201, "#d81b60"),
    (94, "#6d4c41"),
    (250, "#bdbdbd"),
    (118, "#7cb342"),
    (27, "#3949ab"),
];

/// The board in the level's text format.
pub fn board_text(board: &Board) -> String {
    board.to_text()
}

/// The board with ANSI colours: each kind on its own background colour,
/// walls dim.
pub fn board_ansi(board: &Board) -> String {
    let mut out = String::new();
    for row in 0..board.height() {
        let mut line = String::new();
        let mut trailing = 0;
        for col in 0..board.width() {
            let cell = board.get(row, col);
            match cell {
                Cell::Outside => {
                    trailing += 1;
                    continue;
                }
                _ => {
                    line.push_str(&" ".repeat(trailing));
                    trailing = 0;
                }
            }
            let ch = board.cell_char(cell);
            match cell {
                Cell::Wall => {
                    let _ = write!(line, "\x1b[90m{ch}\x1b[0m");
                }
                Cell::Tile(k) => {
                    let (colour, _) = PALETTE[k as usize % PALETTE.len()];
                    let _ = write!(line, "\x1b[1;30;48;5;{colour}m{ch}\x1b[0m");
                }
                _ => line.push(ch),
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The frames of a replay as text, each under its caption; `ansi` colours
/// the boards.
pub fn frames_text(frames: &[Frame], ansi: bool) -> String {
    let mut out = String::new();
    for frame in frames {
        let _ = writeln!(out, "{}", frame.caption);
        out.push_str(&if ansi {
            board_ansi(&frame.board)
        } else {
            board_text(&frame.board)
        });
        out.push('\n');
    }
    out
}

/// Escapes text for HTML.
fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One self-contained HTML page (inline SVG, CSS and script, no network)
/// animating the frames with play, pause, step forward and back, showing
/// the current move.
pub fn frames_html(title: &str, frames: &[Frame]) -> String {
    let Some(first) = frames.first() else {
        return String::new();
    };
    let board = &first.board;
    // Frames as JSON: the rows of each board in the text format, so the
    // script draws walls, empty cells and tiles from characters.
    let frame_values: Vec<serde_json::Value> = frames
        .iter()
        .map(|f| {
            let rows: Vec<String> = (0..f.board.height())
                .map(|r| {
                    (0..f.board.width())
                        .map(|c| f.board.cell_char(f.board.get(r, c)))
                        .collect()
                })
                .collect();
            serde_json::json!({ "caption": f.caption, "moves": f.moves_done, "rows": rows })
        })
        .collect();
    let colours: serde_json::Map<String, serde_json::Value> = board
        .kinds()
        .iter()
        .enumerate()
        .map(|(k, ch)| {
            (
                ch.to_string(),
                serde_json::Value::from(PALETTE[k % PALETTE.len()].1),
            )
        })
        .collect();
    let data = serde_json::json!({ "frames": frame_values, "colours": colours, "width": board.width(), "height": board.height() });
    // `</` must not appear inside the script element.
    let data = data.to_string().replace("</", "<\\/");
    let title = escape_html(title);
    format!(
        r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: sans-serif; background: #222; color: #eee; margin: 2em; }}
#controls button {{ font-size: 1.1em; margin-right: .4em; }}
#caption {{ font-family: monospace; margin: .6em 0; min-height: 1.2em; }}
svg {{ background: #111; border-radius: 6px; }}
.wall {{ fill: #555; }} .empty {{ fill: #1a1a1a; }}
.tile {{ stroke: #000; stroke-width: 1; }}
.label {{ font: bold 14px monospace; fill: #000; text-anchor: middle; dominant-baseline: central; }}
</style>
</head>
<body>
<h1>{title}</h1>
<div id="controls">
<button id="back" title="step back">&#9664;&#9664;</button>
<button id="play">play</button>
<button id="forward" title="step forward">&#9654;&#9654;</button>
<input id="slider" type="range" min="0" value="0">
<span id="counter"></span>
</div>
<div id="caption"></div>
<svg id="board" xmlns="http://www.w3.org/2000/svg"></svg>
<script>
const DATA = {data};
const CELL = 32;
const svg = document.getElementById("board");
const slider = document.getElementById("slider");
const playButton = document.getElementById("play");
let current = 0, timer = null;
svg.setAttribute("width", DATA.width * CELL);
svg.setAttribute("height", DATA.height * CELL);
slider.max = DATA.frames.length - 1;
function draw() {{
  const frame = DATA.frames[current];
  const NS = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  frame.rows.forEach((row, r) => [...row].forEach((ch, c) => {{
    if (ch === " ") return;
    const rect = document.createElementNS(NS, "rect");
    rect.setAttribute("x", c * CELL + 1); rect.setAttribute("y", r * CELL + 1);
    rect.setAttribute("width", CELL - 2); rect.setAttribute("height", CELL - 2);
    if (ch === "#") rect.setAttribute("class", "wall");
    else if (ch === ".") rect.setAttribute("class", "empty");
    else {{ rect.setAttribute("class", "tile"); rect.setAttribute("rx", 6); rect.setAttribute("fill", DATA.colours[ch] || "#fff"); }}
    svg.appendChild(rect);
    if (ch !== "#" && ch !== ".") {{
      const text = document.createElementNS(NS, "text");
      text.setAttribute("x", c * CELL + CELL / 2); text.setAttribute("y", r * CELL + CELL / 2);
      text.setAttribute("class", "label"); text.textContent = ch;
      svg.appendChild(text);
    }}
  }}));
  document.getElementById("caption").textContent = frame.caption;
  document.getElementById("counter").textContent =
    "frame " + (current + 1) + "/" + DATA.frames.length + ", moves played: " + frame.moves;
  slider.value = current;
}}
function go(index) {{ current = Math.max(0, Math.min(DATA.frames.length - 1, index)); draw(); }}
function pause() {{ clearInterval(timer); timer = null; playButton.textContent = "play"; }}
function play() {{
  if (current === DATA.frames.length - 1) go(0);
  playButton.textContent = "pause";
  timer = setInterval(() => {{ if (current >= DATA.frames.length - 1) pause(); else go(current + 1); }}, 600);
}}
playButton.onclick = () => timer ? pause() : play();
document.getElementById("back").onclick = () => {{ pause(); go(current - 1); }};
document.getElementById("forward").onclick = () => {{ pause(); go(current + 1); }};
slider.oninput = () => {{ pause(); go(Number(slider.value)); }};
draw();
</script>
</body>
</html>
"##
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzznic::level::Position;
    use crate::puzznic::level::parse_level;
    use crate::puzznic::simulator::{Direction, Move, replay};
    use pddl_syntax::SourceFile;

    #[test]
    fn renders_text_ansi_and_html() {
        let level = parse_level(&SourceFile::new("t", "######\n#a..a#\n######\n")).unwrap();
        let mv = Move {
            from: Position { row: 1, col: 1 },
            direction: Direction::Right,
        };
        let frames = replay(
            &level.board,
            &[
                mv,
                Move {
                    from: Position { row: 1, col: 2 },
                    direction: Direction::Right,
                },
            ],
            false,
        )
        .unwrap();
        let text = frames_text(&frames, false);
        assert_eq!(
            text,
            "start\n######\n#a..a#\n######\n\nmove 1: move tile at row 2 col 2 right\n######\n#.a.a#\n######\n\nmove 2: move tile at row 2 col 3 right\n######\n#....#\n######\n\n"
        );
        assert!(board_ansi(&level.board).contains("\x1b[1;30;48;5;196ma\x1b[0m"));
        let html = frames_html("level <1>", &frames);
        assert!(html.contains("<title>level &lt;1&gt;</title>"));
        assert!(html.contains("\"#a..a#\""));
        // Self-contained: nothing is loaded from elsewhere.
        assert!(!html.contains("src=") && !html.contains("href="));
    }
}
