//! Levels drawn in the Tiled map editor, exported as JSON.
//!
//! The map must be orthogonal with exactly one tile layer stored as a CSV
//! array (Tiled's default JSON export). A small config says what the tile
//! ids mean:
//!
//! ```json
//! { "walls": [1, 2], "tiles": { "3": "a", "4": "b" }, "empty": [0], "outside": [] }
//! ```
//!
//! `empty` defaults to `[0]` (no tile painted) and `outside` to nothing.
//! The config is given as its own file, or embedded in the map as a custom
//! string property named `puzznic`.

use super::level::{Level, MAX_SIDE, RawCell, SourcedCell, build_level};
use pddl_syntax::ast::Span;
use pddl_syntax::{Diagnostic, SourceFile};
use serde_json::Value;
use std::collections::HashMap;

/// Tiled stores flips and rotations in the top bits of a tile id.
const FLIP_BITS: u64 = 0xF000_0000;

/// What each tile id of a Tiled map means.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TiledConfig {
    meaning: HashMap<u64, RawMeaning>,
}

/// The meaning of one tile id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RawMeaning {
    Outside,
    Wall,
    Empty,
    Tile(char),
}

impl TiledConfig {
    /// Reads a config from its JSON text; errors are located in `file`.
    pub fn parse(file: &SourceFile) -> Result<TiledConfig, Vec<Diagnostic>> {
        let value: Value =
            serde_json::from_str(&file.text).map_err(|e| vec![json_error(file, &e)])?;
        TiledConfig::from_value(&value)
            .map_err(|message| vec![Diagnostic::error(message, Span::new(0, 0))])
    }

    /// Reads a config from a JSON value.
    fn from_value(value: &Value) -> Result<TiledConfig, String> {
        let object = value
            .as_object()
            .ok_or("the Puzznic config must be a JSON object")?;
        let mut meaning = HashMap::from([(0, RawMeaning::Empty)]);
        let ids = |key: &str| -> Result<Vec<u64>, String> {
            match object.get(key) {
                None => Ok(Vec::new()),
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|v| {
                        v.as_u64().ok_or_else(|| {
                            format!("`{key}` must list tile ids (numbers), found {v}")
                        })
                    })
                    .collect(),
                Some(other) => Err(format!(
                    "`{key}` must be an array of tile ids, found {other}"
                )),
            }
        };
        if object.contains_key("empty") {
            meaning.clear();
        }
        for (key, what) in [
            ("empty", RawMeaning::Empty),
            ("walls", RawMeaning::Wall),
            ("outside", RawMeaning::Outside),
        ] {
            for id in ids(key)? {
                meaning.insert(id, what);
            }
        }
        if let Some(tiles) = object.get("tiles") {
            let tiles = tiles
                .as_object()
                .ok_or("`tiles` must map tile ids to characters, e.g. {\"3\": \"a\"}")?;
            for (id, ch) in tiles {
                let id: u64 = id
                    .parse()
                    .map_err(|_| format!("`tiles` key `{id}` is not a tile id"))?;
                let ch = ch
                    .as_str()
                    .and_then(|s| {
                        let mut chars = s.chars();
                        chars
                            .next()
                            .filter(|c| c.is_ascii_alphanumeric() && chars.next().is_none())
                    })
                    .ok_or_else(|| {
                        format!("tile id {id} must map to one letter or digit, found {ch}")
                    })?;
                meaning.insert(id, RawMeaning::Tile(ch));
            }
        }
        for key in object.keys() {
            if !["empty", "walls", "outside", "tiles"].contains(&key.as_str()) {
                return Err(format!(
                    "unknown key `{key}` in the Puzznic config (expected walls, tiles, empty, outside)"
                ));
            }
        }
        Ok(TiledConfig { meaning })
    }
}

/// A `serde_json` error as a diagnostic at its line and column.
fn json_error(file: &SourceFile, error: &serde_json::Error) -> Diagnostic {
    let offset = offset_of(file, error.line(), error.column());
    Diagnostic::error(
        format!("invalid JSON: {error}"),
        Span::new(offset, offset + 1),
    )
}

/// Byte offset of a 1-based line and column (clamped to the text).
fn offset_of(file: &SourceFile, line: usize, column: usize) -> usize {
    let line_start: usize = file
        .text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (line_start + column.saturating_sub(1)).min(file.text.len())
}

/// The byte spans of the elements of the first `"data"` array of the
/// text (up to `count` of them), so cell errors point at the number in
/// the file.
fn data_element_spans(text: &str, count: usize) -> Vec<Span> {
    let Some(key) = text.find("\"data\"") else {
        return Vec::new();
    };
    let Some(open) = text[key..].find('[').map(|o| key + o) else {
        return Vec::new();
    };
    let mut spans = Vec::with_capacity(count);
    let mut start = open + 1;
    for piece in text[open + 1..].split([',', ']']).take(count) {
        let trimmed_start = start + (piece.len() - piece.trim_start().len());
        spans.push(Span::new(
            trimmed_start,
            trimmed_start + piece.trim().len().max(1),
        ));
        start += piece.len() + 1;
    }
    spans
}

/// Reads a Tiled JSON map. `config` is the tile-id config; `None` means
/// the map's `puzznic` custom property holds it.
pub fn parse_tiled(
    file: &SourceFile,
    config: Option<&TiledConfig>,
) -> Result<Level, Vec<Diagnostic>> {
    let whole = Span::new(0, file.text.len().min(1));
    let fail = |message: String| vec![Diagnostic::error(message, whole)];
    let map: Value = serde_json::from_str(&file.text).map_err(|e| vec![json_error(file, &e)])?;
    if let Some(orientation) = map.get("orientation").and_then(Value::as_str)
        && orientation != "orthogonal"
    {
        return Err(fail(format!(
            "the map is {orientation}; only orthogonal maps are Puzznic boards"
        )));
    }
    if map.get("infinite").and_then(Value::as_bool) == Some(true) {
        return Err(fail(
            "the map is infinite; save it with a fixed size".to_string(),
        ));
    }
    let embedded;
    let config = match config {
        Some(c) => c,
        None => {
            let property = map
                .get("properties")
                .and_then(Value::as_array)
                .and_then(|props| props.iter().find(|p| p.get("name").and_then(Value::as_str) == Some("puzznic")))
                .and_then(|p| p.get("value"))
                .ok_or_else(|| fail("no tile-id config: give one, or add a string property `puzznic` to the map".to_string()))?;
            let value = match property {
                Value::String(text) => serde_json::from_str(text)
                    .map_err(|e| fail(format!("the `puzznic` property is not JSON: {e}")))?,
                other => other.clone(),
            };
            embedded = TiledConfig::from_value(&value).map_err(fail)?;
            &embedded
        }
    };
    let layers: Vec<&Value> = map
        .get("layers")
        .and_then(Value::as_array)
        .map(|ls| {
            ls.iter()
                .filter(|l| l.get("type").and_then(Value::as_str) == Some("tilelayer"))
                .collect()
        })
        .unwrap_or_default();
    let [layer] = layers.as_slice() else {
        return Err(fail(format!(
            "expected exactly one tile layer, found {}",
            layers.len()
        )));
    };
    let dimension = |key: &str| {
        layer
            .get(key)
            .or_else(|| map.get(key))
            .and_then(Value::as_u64)
            .map(|v| v as usize)
    };
    let (Some(width), Some(height)) = (dimension("width"), dimension("height")) else {
        return Err(fail("the tile layer has no width and height".to_string()));
    };
    let data = layer.get("data").and_then(Value::as_array).ok_or_else(|| {
        fail("the tile layer's data is not a CSV array (set the layer format to CSV)".to_string())
    })?;
    if width.checked_mul(height) != Some(data.len()) {
        return Err(fail(format!(
            "the tile layer has {} cells, not {width} x {height}",
            data.len()
        )));
    }
    // Refuse huge maps before building anything per cell.
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(fail(format!(
            "the map is {width} x {height} cells, larger than the limit of {MAX_SIDE}"
        )));
    }
    let spans = data_element_spans(&file.text, data.len());
    let mut errors = Vec::new();
    let mut rows = Vec::new();
    for row in 0..height {
        let mut cells = Vec::new();
        for col in 0..width {
            let index = row * width + col;
            let span = spans.get(index).copied().unwrap_or(whole);
            let id = data[index].as_u64().map(|id| id & !FLIP_BITS);
            let cell = match id.and_then(|id| config.meaning.get(&id)) {
                Some(RawMeaning::Outside) => RawCell::Outside,
                Some(RawMeaning::Wall) => RawCell::Wall,
                Some(RawMeaning::Empty) => RawCell::Empty,
                Some(RawMeaning::Tile(ch)) => RawCell::Tile(*ch),
                None => {
                    errors.push(
                        Diagnostic::error(
                            format!(
                                "tile id {} at row {} col {} is not in the config",
                                data[index],
                                row + 1,
                                col + 1
                            ),
                            span,
                        )
                        .with_note("name it under `walls`, `tiles`, `empty` or `outside`"),
                    );
                    RawCell::Wall
                }
            };
            cells.push(SourcedCell { cell, span });
        }
        rows.push(cells);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let comments = vec![format!("drawn in Tiled: {}", file.path)];
    build_level(comments, rows, Span::new(file.text.len(), file.text.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = r#"{ "orientation": "orthogonal", "width": 5, "height": 3, "infinite": false,
  "layers": [ { "type": "tilelayer", "width": 5, "height": 3,
    "data": [1,1,1,1,1,
             1,3,0,3,1,
             1,1,1,1,1] } ],
  "properties": [ { "name": "puzznic", "type": "string", "value": "{\"walls\": [1], \"tiles\": {\"3\": \"a\"}}" } ] }"#;

    #[test]
    fn reads_a_map_with_embedded_config() {
        let level = parse_tiled(&SourceFile::new("m.json", MAP), None).unwrap();
        assert_eq!(level.board.to_text(), "#####\n#a.a#\n#####\n");
    }

    #[test]
    fn reads_a_map_with_separate_config() {
        let config = TiledConfig::parse(&SourceFile::new(
            "c.json",
            r#"{"walls":[1],"tiles":{"3":"7"}}"#,
        ))
        .unwrap();
        let level = parse_tiled(&SourceFile::new("m.json", MAP), Some(&config)).unwrap();
        assert_eq!(level.board.to_text(), "#####\n#7.7#\n#####\n");
    }

    #[test]
    fn unknown_id_points_at_the_number() {
        let file = SourceFile::new("m.json", MAP.replace("1,3,0,3,1", "1,3,9,3,1"));
        let errors = parse_tiled(&file, None).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.contains("tile id 9 at row 2 col 3"));
        assert_eq!(&file.text[errors[0].span.start..errors[0].span.end], "9");
        let broken = SourceFile::new("b.json", "{\n  \"width\": ,\n}");
        let errors = parse_tiled(&broken, None).unwrap_err();
        assert_eq!(broken.line_col(errors[0].span.start).0, 2);
    }
}
