//! The optimiser's fitness landscape plot (SVG): fitness over one or two genes.

#[cfg(feature = "plots")]
use std::fmt;
use std::path::Path;

use super::*;
use crate::error::{Error, Result};

/// The plot axes named by `--plot-axes X[,Y]` (gene names, [`SearchSpace::gene_names`]) as gene
/// indices; `None`: [`SearchSpace::default_plot_axes`]. Y `None` plots F1. Errors:
/// [`Error::Param`] for a name that is not a gene, listing the genes.
pub fn plot_axes<S: SearchSpace>(space: &S, axes: Option<&str>) -> Result<(usize, Option<usize>)> {
    let Some(a) = axes else {
        return Ok(space.default_plot_axes());
    };
    let names = space.gene_names();
    let find = |n: &str| {
        names.iter().position(|g| g == n.trim()).ok_or_else(|| {
            Error::Param(format!(
                "--plot-axes: {:?} is not a searched gene ({})",
                n.trim(),
                names.join(", ")
            ))
        })
    };
    Ok(match a.split_once(',') {
        Some((x, y)) => (find(x)?, Some(find(y)?)),
        None => (find(a)?, None),
    })
}

/// Draws every configuration tried, like Gottron 2009, Fig. 4 ("distribution of parameters …
/// while searching for optimal configuration"): one point per distinct individual on genes
/// `x` and `y` (indices into [`SearchSpace::gene_names`]; with `y` `None` the vertical axis is
/// the train F1), coloured from grey (low F1) to blue (high), the defaults as a black cross,
/// the best as a red circle; written to `path` as SVG, atomically. Errors: [`Error::Param`]
/// for a gene index out of range or a build without the `plots` feature; [`Error::Io`],
/// [`Error::Write`].
pub fn plot<S: SearchSpace>(
    space: &S,
    outcome: &Outcome<S::Individual>,
    x: usize,
    y: Option<usize>,
    path: &Path,
) -> Result<()> {
    let names = space.gene_names();
    if x >= names.len() || y.is_some_and(|y| y >= names.len()) {
        return Err(Error::Param(format!(
            "plot axes: the genes are {}",
            names.join(", ")
        )));
    }
    #[cfg(feature = "plots")]
    {
        plot_svg(space, outcome, x, y, path)
    }
    #[cfg(not(feature = "plots"))]
    {
        let _ = (outcome, path);
        Err(Error::Param(
            "this build has no plots (built without the `plots` feature)".to_string(),
        ))
    }
}

#[cfg(feature = "plots")]
fn plot_svg<S: SearchSpace>(
    space: &S,
    outcome: &Outcome<S::Individual>,
    x: usize,
    y: Option<usize>,
    path: &Path,
) -> Result<()> {
    use plotters::prelude::*;
    let err = |e: &dyn fmt::Display| Error::io(path, std::io::Error::other(e.to_string()));
    let names = space.gene_names();
    let pts: Vec<(f64, f64, f64)> = outcome
        .tried
        .iter()
        .map(|t| {
            let c = space.coords(&t.individual);
            let py = y.map_or(t.fitness, |y| c[y]);
            (c[x], py, t.fitness)
        })
        .collect();
    let range = |v: &mut dyn Iterator<Item = f64>| {
        let (lo, hi) = v.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(x), b.max(x))
        });
        let pad = ((hi - lo) * 0.05).max(1e-3);
        (lo - pad)..(hi + pad)
    };
    let xr = range(&mut pts.iter().map(|p| p.0));
    let yr = range(&mut pts.iter().map(|p| p.1));
    let (fmin, fmax) = pts
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.2), b.max(p.2))
        });
    let ylabel = y.map_or("train F1".to_string(), |y| names[y].clone());
    let best = outcome.best();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 640)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "{} configurations tried: {} vs {} (best train F1 {:.4})",
                    pts.len(),
                    names[x],
                    ylabel,
                    best.fitness
                ),
                ("sans-serif", 16),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(xr, yr)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc(names[x].clone())
            .y_desc(ylabel)
            .draw()
            .map_err(|e| err(&e))?;
        chart
            .draw_series(pts.iter().map(|&(a, b, f)| {
                let t = if fmax > fmin {
                    (f - fmin) / (fmax - fmin)
                } else {
                    1.0
                };
                let c = RGBColor(
                    (190.0 * (1.0 - t)) as u8,
                    (190.0 * (1.0 - t)) as u8,
                    (190.0 + 65.0 * t) as u8,
                );
                Circle::new((a, b), 3, c.filled())
            }))
            .map_err(|e| err(&e))?;
        if let Some(d) = outcome.injected() {
            let c = space.coords(&d.individual);
            let p = (c[x], y.map_or(d.fitness, |y| c[y]));
            chart
                .draw_series([Cross::new(p, 6, BLACK.stroke_width(2))])
                .map_err(|e| err(&e))?;
        }
        let c = space.coords(&best.individual);
        let p = (c[x], y.map_or(best.fitness, |y| c[y]));
        chart
            .draw_series([Circle::new(p, 7, RED.stroke_width(2))])
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    let opts = crate::fsio::write::WriteOptions::default();
    crate::fsio::write::write_bytes(path, &opts, svg.as_bytes())?;
    Ok(())
}
