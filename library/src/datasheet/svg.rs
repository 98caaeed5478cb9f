//! A small SVG chart for the data-sheet report: log or linear axes with ticks, shaded bands, lines,
//! and points with min–max whiskers. Written by hand because the report must be one self-contained
//! file with no scripts; every coordinate is rounded to 0.1 px so the output is deterministic.

use std::fmt::Write as _;

use super::markup::escape_attribute;

/// One axis.
#[derive(Clone, Debug)]
pub struct Axis {
    /// Label under (x) or beside (y) the axis.
    pub label: String,
    /// Smallest value shown (> 0 on a log axis).
    pub min: f64,
    /// Largest value shown.
    pub max: f64,
    /// Logarithmic.
    pub log: bool,
    /// Tick labels as bytes (`4K`, `1M`) rather than numbers.
    pub bytes: bool,
}

impl Axis {
    fn fraction(&self, v: f64) -> f64 {
        if self.log {
            let (lo, hi) = (self.min.log10(), self.max.log10());
            (v.max(self.min).log10() - lo) / (hi - lo).max(1e-12)
        } else {
            (v - self.min) / (self.max - self.min).max(1e-12)
        }
    }

    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let base: f64 = if self.bytes { 4.0 } else { 10.0 };
            let mut t = base.powf((self.min.log(base)).ceil());
            let mut out = Vec::new();
            while t <= self.max * 1.000_001 && out.len() < 40 {
                out.push(t);
                t *= base;
            }
            out
        } else {
            let span = (self.max - self.min).max(1e-12);
            let step = 10f64.powf((span / 5.0).log10().floor());
            let step =
                [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * step).find(|s| span / s <= 6.0).unwrap_or(step);
            let mut t = (self.min / step).ceil() * step;
            let mut out = Vec::new();
            while t <= self.max + step * 1e-9 && out.len() < 40 {
                out.push(t);
                t += step;
            }
            out
        }
    }

    fn tick_label(&self, v: f64) -> String {
        if self.bytes {
            let v = v.round() as u64;
            match v {
                v if v >= 1 << 20 && v % (1 << 20) == 0 => format!("{}M", v >> 20),
                v if v >= 1 << 10 && v % (1 << 10) == 0 => format!("{}K", v >> 10),
                v => v.to_string(),
            }
        } else if v.abs() >= 1e4 || (v != 0.0 && v.abs() < 1e-2) {
            format!("{v:.0e}")
        } else {
            format!("{}", (v * 1000.0).round() / 1000.0)
        }
    }
}

/// What is drawn, bottom to top in the order given.
#[derive(Clone, Debug)]
pub enum Layer {
    /// A shaded area between two curves sampled at the same x.
    Band {
        /// (x, lower, upper).
        points: Vec<(f64, f64, f64)>,
        /// CSS colour.
        colour: String,
    },
    /// A polyline.
    Line {
        /// (x, y).
        points: Vec<(f64, f64)>,
        /// CSS colour.
        colour: String,
    },
    /// Markers with vertical whiskers.
    Points {
        /// (x, y, y low, y high).
        points: Vec<(f64, f64, f64, f64)>,
        /// CSS colour.
        colour: String,
    },
}

/// A chart.
#[derive(Clone, Debug)]
pub struct Chart {
    /// Title above the plot.
    pub title: String,
    /// Horizontal axis.
    pub x: Axis,
    /// Vertical axis.
    pub y: Axis,
    /// Layers.
    pub layers: Vec<Layer>,
    /// Legend entries (label, colour).
    pub legend: Vec<(String, String)>,
    /// Unique within the page (names the plot area's clip path).
    pub id: String,
}

/// The chart's size and the margins around its plot area, in px.
struct Frame {
    width: f64,
    height: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
}

/// Every chart's frame: 640 × 380 px, the legend in the right margin.
const FRAME: Frame = Frame { width: 640.0, height: 380.0, left: 70.0, right: 130.0, top: 30.0, bottom: 50.0 };

fn r(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

impl Chart {
    fn px(&self, x: f64) -> f64 {
        r(FRAME.left + self.x.fraction(x) * (FRAME.width - FRAME.left - FRAME.right))
    }

    fn py(&self, y: f64) -> f64 {
        r(FRAME.height
            - FRAME.bottom
            - self.y.fraction(y).clamp(-0.05, 1.05) * (FRAME.height - FRAME.top - FRAME.bottom))
    }

    /// The chart as an `<svg>` element.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let (width, height) = (FRAME.width, FRAME.height);
        let _ = write!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
        );
        let (x0, x1, y0, y1) = (FRAME.left, width - FRAME.right, FRAME.top, height - FRAME.bottom);
        let _ = write!(
            s,
            r##"<rect x="{x0}" y="{y0}" width="{}" height="{}" fill="#fff" stroke="#999"/>"##,
            x1 - x0,
            y1 - y0
        );
        let _ = write!(
            s,
            r#"<text x="{}" y="18" text-anchor="middle" font-size="13">{}</text>"#,
            r(f64::midpoint(x0, x1)),
            escape_attribute(&self.title)
        );
        for t in self.x.ticks() {
            let x = self.px(t);
            let _ = write!(s, r##"<line x1="{x}" y1="{y0}" x2="{x}" y2="{y1}" stroke="#eee"/>"##);
            let _ = write!(
                s,
                r#"<text x="{x}" y="{}" text-anchor="middle">{}</text>"#,
                y1 + 14.0,
                self.x.tick_label(t)
            );
        }
        for t in self.y.ticks() {
            let y = self.py(t);
            let _ = write!(s, r##"<line x1="{x0}" y1="{y}" x2="{x1}" y2="{y}" stroke="#eee"/>"##);
            let _ = write!(
                s,
                r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
                x0 - 4.0,
                y + 4.0,
                self.y.tick_label(t)
            );
        }
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            r(f64::midpoint(x0, x1)),
            height - 12.0,
            escape_attribute(&self.x.label)
        );
        let _ = write!(
            s,
            r#"<text x="16" y="{0}" text-anchor="middle" transform="rotate(-90 16 {0})">{1}</text>"#,
            r(f64::midpoint(y0, y1)),
            escape_attribute(&self.y.label)
        );
        let _ = write!(
            s,
            r#"<defs><clipPath id="clip-{id}"><rect x="{x0}" y="{y0}" width="{}" height="{}"/></clipPath></defs><g clip-path="url(#clip-{id})">"#,
            x1 - x0,
            y1 - y0,
            id = escape_attribute(&self.id)
        );
        for layer in &self.layers {
            self.layer(&mut s, layer);
        }
        s.push_str("</g>");
        for (i, (label, colour)) in self.legend.iter().enumerate() {
            let y = FRAME.top + 10.0 + 16.0 * i as f64;
            let _ = write!(
                s,
                r#"<rect x="{}" y="{}" width="12" height="8" fill="{colour}"/>"#,
                x1 + 10.0,
                y - 8.0
            );
            let _ = write!(s, r#"<text x="{}" y="{y}">{}</text>"#, x1 + 26.0, escape_attribute(label));
        }
        s.push_str("</svg>");
        s
    }

    fn layer(&self, s: &mut String, layer: &Layer) {
        match layer {
            Layer::Band { points, colour } => {
                let upper = points.iter().map(|(x, _, hi)| format!("{},{}", self.px(*x), self.py(*hi)));
                let lower = points.iter().rev().map(|(x, lo, _)| format!("{},{}", self.px(*x), self.py(*lo)));
                let all: Vec<String> = upper.chain(lower).collect();
                let _ = write!(
                    s,
                    r#"<polygon points="{}" fill="{colour}" fill-opacity="0.18" stroke="none"/>"#,
                    all.join(" ")
                );
            }
            Layer::Line { points, colour } => {
                let all: Vec<String> =
                    points.iter().map(|(x, y)| format!("{},{}", self.px(*x), self.py(*y))).collect();
                let _ = write!(
                    s,
                    r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.5"/>"#,
                    all.join(" ")
                );
            }
            Layer::Points { points, colour } => {
                for (x, y, lo, hi) in points {
                    let (cx, cy) = (self.px(*x), self.py(*y));
                    let _ = write!(
                        s,
                        r#"<line x1="{cx}" y1="{}" x2="{cx}" y2="{}" stroke="{colour}" stroke-opacity="0.6"/>"#,
                        self.py(*lo),
                        self.py(*hi)
                    );
                    let _ = write!(s, r#"<circle cx="{cx}" cy="{cy}" r="2.5" fill="{colour}"/>"#);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_and_byte_labels() {
        let x = Axis { label: "bytes".into(), min: 1.0, max: 1_048_576.0, log: true, bytes: true };
        let labels: Vec<String> = x.ticks().iter().map(|t| x.tick_label(*t)).collect();
        assert_eq!(labels, ["1", "4", "16", "64", "256", "1K", "4K", "16K", "64K", "256K", "1M"]);
        assert!((x.fraction(1024.0) - 0.5).abs() < 1e-12);
        let y = Axis { label: "µs".into(), min: 0.0, max: 10.0, log: false, bytes: false };
        assert_eq!(y.ticks(), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
    }

    #[test]
    fn renders_every_layer_and_escapes_text() {
        let chart = Chart {
            title: "a < b".into(),
            x: Axis { label: "x".into(), min: 1.0, max: 100.0, log: true, bytes: false },
            y: Axis { label: "y".into(), min: 0.0, max: 1.0, log: false, bytes: false },
            layers: vec![
                Layer::Band { points: vec![(1.0, 0.1, 0.3), (100.0, 0.5, 0.9)], colour: "red".into() },
                Layer::Line { points: vec![(1.0, 0.2), (100.0, 0.7)], colour: "red".into() },
                Layer::Points { points: vec![(10.0, 0.5, 0.4, 0.6)], colour: "red".into() },
            ],
            legend: vec![("p = 4".into(), "red".into())],
            id: "t".into(),
        };
        let svg = chart.render();
        assert!(svg.contains("a &lt; b") && svg.contains("<polygon") && svg.contains("<polyline"));
        assert!(svg.contains("<circle cx=\"290\"") && svg.contains(">p = 4</text>"), "{svg}");
    }
}
