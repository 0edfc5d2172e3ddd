//! Chapter parameters, described once and used everywhere.
//!
//! A chapter keeps its parameters in a plain serde struct and describes each field once in
//! `Parameters::visit`: name, unit, range and help text. Visitors then drive everything else from
//! that one description: the egui panel, `--set name=value` on the CLI, `list`, range checks on
//! preset files, and the book's parameter tables.

use serde::{Serialize, de::DeserializeOwned};
use std::fmt;

/// How a parameter is edited and checked.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    /// A real number in `[min, max]`; `log` asks the UI for a logarithmic slider.
    Float {
        min: f32,
        max: f32,
        log: bool,
    },
    /// A whole number in `[min, max]`.
    Int {
        min: u32,
        max: u32,
    },
    Bool,
    /// One of a fixed list of names.
    Choice {
        options: &'static [&'static str],
    },
    /// Linear RGB in `[0, max]` (HDR colours may exceed 1), with an optional alpha in `[0, 1]`.
    Color {
        alpha: bool,
        max: f32,
    },
    /// Free text, e.g. a file path; the chapter checks it when it uses it.
    Text,
}

/// The description of one parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamInfo {
    /// The name used on the CLI, in preset files and in the book (snake_case).
    pub name: &'static str,
    pub unit: &'static str,
    pub help: &'static str,
    pub kind: ParamKind,
}

impl ParamInfo {
    pub const fn float(name: &'static str, min: f32, max: f32) -> Self {
        Self { name, unit: "", help: "", kind: ParamKind::Float { min, max, log: false } }
    }
    pub const fn log_float(name: &'static str, min: f32, max: f32) -> Self {
        Self { name, unit: "", help: "", kind: ParamKind::Float { min, max, log: true } }
    }
    pub const fn int(name: &'static str, min: u32, max: u32) -> Self {
        Self { name, unit: "", help: "", kind: ParamKind::Int { min, max } }
    }
    pub const fn boolean(name: &'static str) -> Self {
        Self { name, unit: "", help: "", kind: ParamKind::Bool }
    }
    pub const fn choice(name: &'static str, options: &'static [&'static str]) -> Self {
        Self { name, unit: "", help: "", kind: ParamKind::Choice { options } }
    }
    pub const fn color(name: &'static str, alpha: bool, max: f32) -> Self {
        Self { name, unit: "", help: "", kind: ParamKind::Color { alpha, max } }
    }
    pub const fn text(name: &'static str) -> Self {
        Self { name, unit: "", help: "", kind: ParamKind::Text }
    }
    pub const fn unit(mut self, unit: &'static str) -> Self {
        self.unit = unit;
        self
    }
    pub const fn help(mut self, help: &'static str) -> Self {
        self.help = help;
        self
    }

    /// `value` as `--set` takes it back: a colour without alpha as r,g,b, all else as displayed.
    pub fn value_text(&self, value: &ParamValue) -> String {
        match (&self.kind, value) {
            (ParamKind::Color { alpha: false, .. }, ParamValue::Color([r, g, b, _])) => format!("{r},{g},{b}"),
            _ => value.to_string(),
        }
    }

    /// The accepted range as text, for `list` and error messages.
    pub fn range_text(&self) -> String {
        match &self.kind {
            ParamKind::Float { min, max, .. } => format!("{min} ..= {max}"),
            ParamKind::Int { min, max } => format!("{min} ..= {max}"),
            ParamKind::Bool => "true | false".into(),
            ParamKind::Choice { options } => options.join(" | "),
            ParamKind::Color { alpha: true, max } => format!("r,g,b in 0 ..= {max}, a in 0 ..= 1"),
            ParamKind::Color { alpha: false, max } => format!("r,g,b in 0 ..= {max}"),
            ParamKind::Text => "text".into(),
        }
    }
}

/// A parameter's current value.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    Float(f32),
    Int(u32),
    Bool(bool),
    Choice(&'static str),
    Color([f32; 4]),
    Text(String),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Float(v) => write!(f, "{v}"),
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Bool(v) => write!(f, "{v}"),
            ParamValue::Choice(v) => write!(f, "{v}"),
            ParamValue::Color([r, g, b, a]) => write!(f, "{r},{g},{b},{a}"),
            ParamValue::Text(t) => write!(f, "{t:?}"),
        }
    }
}

// ANCHOR: visitor
/// Receives each parameter of a chapter in turn, with mutable access to its value.
pub trait ParamVisitor {
    fn float(&mut self, info: &ParamInfo, value: &mut f32);
    fn int(&mut self, info: &ParamInfo, value: &mut u32);
    fn boolean(&mut self, info: &ParamInfo, value: &mut bool);
    /// `index` into `ParamKind::Choice::options`.
    fn choice(&mut self, info: &ParamInfo, index: &mut usize);
    /// RGBA; alpha is ignored unless the kind says `alpha: true`.
    fn color(&mut self, info: &ParamInfo, value: &mut [f32; 4]);
    fn text(&mut self, info: &ParamInfo, value: &mut String);
    /// Starts a named group of parameters (a heading in the panel).
    fn group(&mut self, _title: &'static str) {}
    /// Offers a whole list (`visit_list`); a visitor that edits lists as lists (the panel:
    /// add, duplicate, delete, select) does so and returns true, others return false and then
    /// see every item's parameters in turn.
    fn list(&mut self, _list: &mut dyn ParamList) -> bool {
        false
    }
}
// ANCHOR_END: visitor

// ANCHOR: param_list
/// A list of items that share one set of parameters (fog volumes, say). Item i's
/// parameters are named `name[i].field` (`item_names`), so `--set`, presets, `list` and the range
/// checks reach them like any other parameter; the list's length is an `int` parameter that the
/// owner visits before it (`volume_count`).
pub trait ParamList {
    /// What one item is called, for the panel ("volume").
    fn item_label(&self) -> &'static str;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn max_len(&self) -> usize;
    /// A short description of item i for the panel's list.
    fn describe(&self, i: usize) -> String;
    /// Appends a new item with the default values.
    fn push_new(&mut self);
    /// Inserts a copy of item i right after it.
    fn duplicate(&mut self, i: usize);
    fn remove(&mut self, i: usize);
    fn visit_item(&mut self, i: usize, v: &mut dyn ParamVisitor);
}

/// Visits a list: as a list where the visitor takes it, else item by item.
pub fn visit_list(v: &mut dyn ParamVisitor, list: &mut dyn ParamList) {
    if !v.list(list) {
        for i in 0..list.len() {
            list.visit_item(i, v);
        }
    }
}

/// The names `list[i].field` for every i below `max` and every field, made once per list name
/// and kept for the program's life (parameter names are `&'static str`).
pub fn item_names<const N: usize>(
    cell: &'static std::sync::OnceLock<Vec<[&'static str; N]>>,
    list: &str,
    fields: [&str; N],
    max: usize,
) -> &'static [[&'static str; N]] {
    cell.get_or_init(|| {
        (0..max).map(|i| fields.map(|f| &*Box::leak(format!("{list}[{i}].{f}").into_boxed_str()))).collect()
    })
}
// ANCHOR_END: param_list

/// An enum that is edited as a choice parameter.
pub trait ChoiceParam: Copy {
    const OPTIONS: &'static [&'static str];
    fn index(self) -> usize;
    fn from_index(index: usize) -> Self;
}

/// Visits an enum field as a choice.
pub fn visit_choice<E: ChoiceParam>(v: &mut dyn ParamVisitor, info: &ParamInfo, value: &mut E) {
    let mut index = value.index();
    v.choice(info, &mut index);
    *value = E::from_index(index.min(E::OPTIONS.len() - 1));
}

/// Implements `ChoiceParam` for a fieldless enum: `choice_enum!(Falloff { Linear = "linear", ... })`.
#[macro_export]
macro_rules! choice_enum {
    ($ty:ident { $($variant:ident = $name:literal),+ $(,)? }) => {
        impl $crate::params::ChoiceParam for $ty {
            const OPTIONS: &'static [&'static str] = &[$($name),+];
            fn index(self) -> usize {
                [$($ty::$variant),+].iter().position(|v| *v == self).unwrap_or(0)
            }
            fn from_index(index: usize) -> Self {
                [$($ty::$variant),+].get(index).copied().unwrap_or([$($ty::$variant),+][0])
            }
        }
    };
}

// ANCHOR: parameters
/// A chapter's parameter struct.
pub trait Parameters: Serialize + DeserializeOwned + Clone + Default + Send + 'static {
    fn visit(&mut self, v: &mut dyn ParamVisitor);
}
// ANCHOR_END: parameters

/// Anything whose parameters can be visited (typed structs and `dyn DynParameters` alike).
pub trait Visit {
    fn visit_all(&mut self, v: &mut dyn ParamVisitor);
}

impl<T: Parameters> Visit for T {
    fn visit_all(&mut self, v: &mut dyn ParamVisitor) {
        Parameters::visit(self, v)
    }
}

/// Object-safe face of `Parameters`, used by the app and the UI.
pub trait DynParameters: Visit + Send {
    fn to_ron(&self) -> String;
    /// Parses a RON value into a new set of parameters, checks every range, and only then
    /// replaces the current values. On error nothing changes.
    fn load_ron(&mut self, text: &str) -> Result<(), ParamError>;
    fn reset(&mut self);
    /// Every parameter with its default value.
    fn defaults(&self) -> Vec<(ParamInfo, ParamValue)>;
}

impl<T: Parameters> DynParameters for T {
    fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).unwrap_or_default()
    }
    fn load_ron(&mut self, text: &str) -> Result<(), ParamError> {
        let mut candidate: T = ron::from_str(text).map_err(|e| ParamError::Parse(e.to_string()))?;
        check(&mut candidate)?;
        *self = candidate;
        Ok(())
    }
    fn reset(&mut self) {
        *self = T::default();
    }
    fn defaults(&self) -> Vec<(ParamInfo, ParamValue)> {
        collect(&mut T::default())
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParamError {
    #[error("unknown parameter {name:?} (known: {known})")]
    Unknown { name: String, known: String },
    #[error("parameter {name}: {value:?} is not valid: expected {expected}")]
    Invalid { name: String, value: String, expected: String },
    #[error("parameter {name} = {value} is out of range {range}")]
    OutOfRange { name: String, value: String, range: String },
    #[error("cannot parse parameters: {0}")]
    Parse(String),
}

// ANCHOR: collect
/// Lists every parameter with its current value.
pub fn collect(params: &mut dyn Visit) -> Vec<(ParamInfo, ParamValue)> {
    struct Collect(Vec<(ParamInfo, ParamValue)>);
    impl ParamVisitor for Collect {
        fn float(&mut self, i: &ParamInfo, v: &mut f32) {
            self.0.push((i.clone(), ParamValue::Float(*v)));
        }
        fn int(&mut self, i: &ParamInfo, v: &mut u32) {
            self.0.push((i.clone(), ParamValue::Int(*v)));
        }
        fn boolean(&mut self, i: &ParamInfo, v: &mut bool) {
            self.0.push((i.clone(), ParamValue::Bool(*v)));
        }
        fn choice(&mut self, i: &ParamInfo, v: &mut usize) {
            let ParamKind::Choice { options } = i.kind else { return };
            self.0.push((i.clone(), ParamValue::Choice(options.get(*v).copied().unwrap_or("?"))));
        }
        fn color(&mut self, i: &ParamInfo, v: &mut [f32; 4]) {
            self.0.push((i.clone(), ParamValue::Color(*v)));
        }
        fn text(&mut self, i: &ParamInfo, v: &mut String) {
            self.0.push((i.clone(), ParamValue::Text(v.clone())));
        }
    }
    let mut c = Collect(Vec::new());
    params.visit_all(&mut c);
    c.0
}
// ANCHOR_END: collect

/// Checks every value against its range (and rejects NaN and infinities).
pub fn check(params: &mut dyn Visit) -> Result<(), ParamError> {
    for (info, value) in collect(params) {
        let ok = match (&info.kind, &value) {
            (ParamKind::Float { min, max, .. }, ParamValue::Float(v)) => v.is_finite() && v >= min && v <= max,
            (ParamKind::Int { min, max }, ParamValue::Int(v)) => v >= min && v <= max,
            (ParamKind::Color { alpha, max }, ParamValue::Color(c)) => {
                c[..3].iter().all(|x| x.is_finite() && *x >= 0.0 && x <= max)
                    && (!alpha || (c[3].is_finite() && (0.0..=1.0).contains(&c[3])))
            }
            _ => true,
        };
        if !ok {
            return Err(ParamError::OutOfRange {
                name: info.name.to_string(),
                value: value.to_string(),
                range: info.range_text(),
            });
        }
    }
    Ok(())
}

/// The visitor that parses `text` into the parameter named `name`, noting whether it was found.
struct Setter<'a> {
    name: &'a str,
    text: &'a str,
    found: bool,
    result: Result<(), ParamError>,
}
impl Setter<'_> {
    /// Whether `info` is the parameter sought (noting that it was found).
    fn matches(&mut self, info: &ParamInfo) -> bool {
        let hit = info.name == self.name;
        self.found |= hit;
        hit
    }
    /// Records that the text is not a value of the parameter's kind.
    fn invalid(&mut self, info: &ParamInfo, expected: &str) {
        self.result =
            Err(ParamError::Invalid { name: info.name.into(), value: self.text.into(), expected: expected.into() });
    }
    /// Records that the value lies outside the parameter's range.
    fn out_of_range(&mut self, info: &ParamInfo) {
        self.result =
            Err(ParamError::OutOfRange { name: info.name.into(), value: self.text.into(), range: info.range_text() });
    }
}
impl ParamVisitor for Setter<'_> {
    fn float(&mut self, info: &ParamInfo, value: &mut f32) {
        if !self.matches(info) {
            return;
        }
        let ParamKind::Float { min, max, .. } = info.kind else { return };
        match self.text.trim().parse::<f32>() {
            Ok(v) if !v.is_finite() => self.invalid(info, "a finite number"),
            Ok(v) if v < min || v > max => self.out_of_range(info),
            Ok(v) => *value = v,
            Err(_) => self.invalid(info, "a number"),
        }
    }
    fn int(&mut self, info: &ParamInfo, value: &mut u32) {
        if !self.matches(info) {
            return;
        }
        let ParamKind::Int { min, max } = info.kind else { return };
        match self.text.trim().parse::<u32>() {
            Ok(v) if v < min || v > max => self.out_of_range(info),
            Ok(v) => *value = v,
            Err(_) => self.invalid(info, "a whole number"),
        }
    }
    fn boolean(&mut self, info: &ParamInfo, value: &mut bool) {
        if !self.matches(info) {
            return;
        }
        match self.text.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "on" | "yes" => *value = true,
            "false" | "0" | "off" | "no" => *value = false,
            _ => self.invalid(info, "true or false"),
        }
    }
    fn choice(&mut self, info: &ParamInfo, index: &mut usize) {
        if !self.matches(info) {
            return;
        }
        let ParamKind::Choice { options } = info.kind else { return };
        match options.iter().position(|o| o.eq_ignore_ascii_case(self.text.trim())) {
            Some(i) => *index = i,
            None => self.invalid(info, &options.join(" | ")),
        }
    }
    fn color(&mut self, info: &ParamInfo, value: &mut [f32; 4]) {
        if !self.matches(info) {
            return;
        }
        let ParamKind::Color { alpha, max } = info.kind else { return };
        let parts: Result<Vec<f32>, _> = self.text.split(',').map(|p| p.trim().parse::<f32>()).collect();
        let expected = if alpha { "r,g,b or r,g,b,a" } else { "r,g,b (or r,g,b,1: this colour has no alpha)" };
        // A colour without alpha takes a fourth component of 1 too, as preset files and
        // the panel's colour editors hold it.
        let no_alpha_four = |p: &[f32]| !alpha && p.len() == 4 && p[3] == 1.0;
        match parts {
            Ok(p) if p.len() == 3 || (alpha && p.len() == 4) || no_alpha_four(&p) => {
                let a = if alpha && p.len() == 4 { p[3] } else { value[3] };
                let rgb_ok = p[..3].iter().all(|x| x.is_finite() && *x >= 0.0 && *x <= max);
                if !rgb_ok || !(0.0..=1.0).contains(&a) {
                    self.out_of_range(info);
                } else {
                    *value = [p[0], p[1], p[2], a];
                }
            }
            _ => self.invalid(info, expected),
        }
    }
    fn text(&mut self, info: &ParamInfo, value: &mut String) {
        if self.matches(info) {
            // `list` prints text quoted ("" for none): a quoted value is its contents.
            let text = self.text.trim();
            let unquoted = text.strip_prefix('"').and_then(|t| t.strip_suffix('"'));
            *value = unquoted.unwrap_or(text).to_string();
        }
    }
}

/// Sets one parameter from its CLI text (`name=value`). On error nothing changes.
pub fn set_by_name(params: &mut dyn Visit, name: &str, text: &str) -> Result<(), ParamError> {
    let mut setter = Setter { name, text, found: false, result: Ok(()) };
    params.visit_all(&mut setter);
    if !setter.found {
        let known: Vec<_> = collect(params).into_iter().map(|(i, _)| i.name).collect();
        return Err(ParamError::Unknown { name: name.into(), known: known.join(", ") });
    }
    setter.result
}

/// Splits `name=value`.
pub fn split_assignment(text: &str) -> Result<(&str, &str), ParamError> {
    text.split_once('=')
        .map(|(n, v)| (n.trim(), v.trim()))
        .filter(|(n, _)| !n.is_empty())
        .ok_or_else(|| ParamError::Parse(format!("{text:?} is not of the form name=value")))
}

/// A type a parameter can have, and the visitor call that edits it.
pub trait ParamType {
    fn visit_param(&mut self, v: &mut dyn ParamVisitor, info: &ParamInfo);
}

impl ParamType for f32 {
    fn visit_param(&mut self, v: &mut dyn ParamVisitor, info: &ParamInfo) {
        v.float(info, self)
    }
}

impl ParamType for u32 {
    fn visit_param(&mut self, v: &mut dyn ParamVisitor, info: &ParamInfo) {
        v.int(info, self)
    }
}

impl ParamType for bool {
    fn visit_param(&mut self, v: &mut dyn ParamVisitor, info: &ParamInfo) {
        v.boolean(info, self)
    }
}

impl ParamType for String {
    fn visit_param(&mut self, v: &mut dyn ParamVisitor, info: &ParamInfo) {
        v.text(info, self)
    }
}

impl ParamType for [f32; 4] {
    fn visit_param(&mut self, v: &mut dyn ParamVisitor, info: &ParamInfo) {
        v.color(info, self)
    }
}

impl<E: ChoiceParam> ParamType for E {
    fn visit_param(&mut self, v: &mut dyn ParamVisitor, info: &ParamInfo) {
        visit_choice(v, info, self)
    }
}

/// Declares a parameter struct once: every field with its type, default and description, in
/// groups. Generates the struct (serde, with defaults for missing fields), `Default`, and
/// `Parameters::visit`, which names each parameter after its field.
///
/// ```ignore
/// fogbook_core::parameters! {
///     pub struct FogParams {
///         "Fog" {
///             /// Extinction coefficient.
///             density: f32 = 0.02, log_float(0.0, 1.0).unit("1/m").help("Fog density"),
///             glow: bool = true, boolean().help("Add the sun glow"),
///         }
///     }
/// }
/// ```
/// The description is a `ParamInfo` constructor without the name (`float(min, max)`,
/// `log_float`, `int`, `boolean()`, `choice(OPTIONS)`, `color(alpha, max)`) and its builders.
#[macro_export]
// ANCHOR: parameters_macro
macro_rules! parameters {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $group:literal {
                    $(
                        $(#[$field_meta:meta])*
                        $field:ident : $ty:ty = $default:expr,
                        $kind:ident ( $($arg:expr),* ) $( . $builder:ident ( $($builder_arg:expr),* ) )*,
                    )+
                }
            )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name {
            $( $( $(#[$field_meta])* pub $field: $ty, )+ )+
        }
        impl Default for $name {
            fn default() -> Self {
                Self { $( $( $field: $default, )+ )+ }
            }
        }
        impl $crate::params::Parameters for $name {
            fn visit(&mut self, v: &mut dyn $crate::params::ParamVisitor) {
                $(
                    v.group($group);
                    $(
                        let info = $crate::params::ParamInfo::$kind(stringify!($field) $(, $arg)*)
                            $( .$builder($($builder_arg),*) )*;
                        $crate::params::ParamType::visit_param(&mut self.$field, v, &info);
                    )+
                )+
            }
        }
    };
}
// ANCHOR_END: parameters_macro

/// A finite value clamped to [lo, hi], or `fallback` when it is NaN or infinite: how values from
/// parameters reach a GPU uniform, so that bad input never arrives there as NaN.
pub fn finite_in(v: f32, lo: f32, hi: f32, fallback: f32) -> f32 {
    if v.is_finite() { v.clamp(lo, hi) } else { fallback }
}
