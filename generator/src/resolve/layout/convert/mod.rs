//! Plans the conversions between protocol versions ([`ConvertPlan`]).
//!
//! Types pair up by schema name (or a `[[convert.rename]]`) between adjacent versions; the pairs their
//! fields and members need are found on the way (an inline union that became `ContentBlock`, say).
//! Each pair converts field by field or member by member (`pairs`); versions further apart convert
//! through the versions in between. Every case that can fail or that takes a fallback becomes a
//! [`ConvertCase`], and the plan names its row where the code fails, so the table cannot drift from the code.

mod pairs;
mod planner;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::config::Config;
use crate::ir::*;
use planner::{compatible, kind_word, Planner, Todo};

/// The conversion plan of a resolved type space; `shared` is what the layout pass decided about sharing.
pub(super) fn plan(space: &TypeSpace, config: &Config, shared: &BTreeMap<String, BTreeSet<String>>) -> ConvertPlan {
    let mut versions = Vec::new();
    let mut plan = ConvertPlan::default();
    for m in config.modules.iter().filter(|m| m.overlay.is_none()) {
        let (Some(module), Some(protocol)) = (space.module(&m.name), m.protocol.clone()) else { continue };
        versions.push(module);
        plan.versions.push(PlanVersion { module: m.name.clone(), protocol });
    }
    if versions.len() < 2 {
        return ConvertPlan::default();
    }
    for i in 0..versions.len() - 1 {
        plan.steps.push(ConvertStep { from: i, to: i + 1, pairs: Vec::new() });
        plan.steps.push(ConvertStep { from: i + 1, to: i, pairs: Vec::new() });
    }
    let empty = BTreeSet::new();
    let mut homes = BTreeMap::new();
    for v in &versions {
        let Some(home) = config.modules.iter().find(|c| c.name == v.name).and_then(|c| c.share_with.clone()) else { continue };
        homes.insert(v.name.clone(), (home, shared.get(&v.name).unwrap_or(&empty)));
    }
    let n = plan.steps.len();
    let mut p = Planner { space, config, versions, plan, shared: homes, done: BTreeSet::new(), cases: BTreeSet::new(), names: vec![BTreeMap::new(); n] };
    for s in 0..n {
        p.step(s);
    }
    p.chains();
    p.no_requests();
    p.finish()
}

impl Planner<'_> {
    /// Pairs every named type of the step's source with its namesake in the target, then plans
    /// the pairs those need, until none is left.
    fn step(&mut self, step: usize) {
        let src_mod = self.versions[self.plan.steps[step].from];
        let dst_mod = self.versions[self.plan.steps[step].to];
        let mut queue = VecDeque::new();
        for item in &src_mod.items {
            let target = self.renamed(step, &item.name);
            if dst_mod.items.iter().all(|i| i.name != target) {
                continue;
            }
            let named = |m: &Module, n: &str| Ty::Named(TypeRef { module: m.name.clone(), name: n.to_string() });
            let (Some((src, si)), Some((dst, di))) = (self.nominal(&named(src_mod, &item.name)), self.nominal(&named(dst_mod, &target))) else { continue };
            if !compatible(&si.kind, &di.kind) {
                let what = format!("a {} in one version and a {} in the other", kind_word(&si.kind), kind_word(&di.kind));
                self.case(step, item.name.clone(), what, "not converted (no `Convert` impl)");
                continue;
            }
            self.names[step].insert(item.name.clone(), target);
            queue.push_back(Todo { step, src, dst });
        }
        while let Some(todo) = queue.pop_front() {
            if todo.src == todo.dst {
                self.plan.identity.insert(todo.src.clone());
                continue;
            }
            if !self.done.insert((todo.src.clone(), todo.dst.clone())) {
                continue;
            }
            let how = self.pair(&todo, &mut queue);
            self.plan.steps[step].pairs.push(ConvertPair { src: todo.src, dst: todo.dst, how });
        }
    }

    /// Conversions between versions further apart, through each version in between, and the run-time table.
    fn chains(&mut self) {
        let count = self.versions.len();
        // name maps for every ordered pair (i, j): schema name in i -> schema name in j.
        let step_index = |from: usize, to: usize| -> usize { if to > from { 2 * from } else { 2 * to + 1 } };
        let mut reach: BTreeMap<(usize, usize), BTreeMap<String, String>> = BTreeMap::new();
        for i in 0..count {
            for j in 0..count {
                if i.abs_diff(j) == 1 {
                    reach.insert((i, j), self.names[step_index(i, j)].clone());
                }
            }
        }
        for dist in 2..count {
            for i in 0..count {
                for j in [i.checked_sub(dist), Some(i + dist)].into_iter().flatten().filter(|&j| j < count) {
                    let next = if j > i { i + 1 } else { i - 1 };
                    let map = self.chain(i, next, j, &reach[&(i, next)], &reach[&(next, j)]);
                    reach.insert((i, j), map);
                }
            }
        }
        let mut routes = Vec::new();
        for ((i, j), map) in &reach {
            for (name, target) in map {
                let (Some(src), Some(dst)) = (self.nominal_in(*i, name), self.nominal_in(*j, target)) else { continue };
                routes.push(ConvertRoute { name: name.clone(), from: self.protocol(*i), to: self.protocol(*j), target: target.clone(), src: self.rust_path(&src), dst: self.rust_path(&dst) });
            }
        }
        for e in &self.config.envelopes {
            let has = |m: &Module, n: &str| m.items.iter().any(|it| it.name == n);
            let emitted = |m: &Module| has(m, &e.id) && has(m, &e.result) && has(m, &e.notification) && e.error.iter().any(|n| has(m, n));
            for (i, vi) in self.versions.iter().enumerate() {
                for (j, vj) in self.versions.iter().enumerate() {
                    if i == j || !emitted(vi) || !emitted(vj) {
                        continue;
                    }
                    let path = |m: &Module| RustPath { module: m.name.clone(), name: e.name.clone() };
                    routes.push(ConvertRoute { name: e.name.clone(), from: self.protocol(i), to: self.protocol(j), target: e.name.clone(), src: path(vi), dst: path(vj) });
                }
            }
        }
        routes.sort_by(|a, b| (&a.name, &a.from, &a.to).cmp(&(&b.name, &b.from, &b.to)));
        self.plan.routes = routes;
    }

    /// The names that convert from version `i` to `j` through `next`; plans their chains and
    /// records the types of both versions that some version in between lacks.
    fn chain(&mut self, i: usize, next: usize, j: usize, first: &BTreeMap<String, String>, rest: &BTreeMap<String, String>) -> BTreeMap<String, String> {
        let mut map = BTreeMap::new();
        for (name, mid) in first {
            let Some(last) = rest.get(mid) else { continue };
            let (Some(src), Some(mid), Some(dst)) = (self.nominal_in(i, name), self.nominal_in(next, mid), self.nominal_in(j, last)) else { continue };
            map.insert(name.clone(), last.clone());
            if src == dst {
                self.plan.identity.insert(src);
                continue;
            }
            if self.done.insert((src.clone(), dst.clone())) {
                self.plan.chains.push(ConvertChain { src, mid, dst });
            }
        }
        let gaps: Vec<String> = self.versions[i].items.iter().filter(|it| !map.contains_key(&it.name) && self.nominal_in(i, &it.name).is_some() && self.nominal_in(j, &it.name).is_some()).map(|it| it.name.clone()).collect();
        for name in gaps {
            let what = "a version in between lacks the type, or it does not convert there".to_string();
            self.cases.insert(ConvertCase { from: self.protocol(i), to: self.protocol(j), place: name, what, outcome: "not converted (no `Convert` impl): a conversion goes through every version in between".into() });
        }
        map
    }

    /// A side that sends requests in one version and none in another: its requests cannot convert.
    fn no_requests(&mut self) {
        let mut seen = BTreeSet::new();
        for e in &self.config.envelopes {
            for (i, vi) in self.versions.iter().enumerate() {
                for (j, vj) in self.versions.iter().enumerate() {
                    let has = |m: &Module| m.items.iter().any(|it| it.name == e.request);
                    if i == j || !has(vi) || has(vj) {
                        continue;
                    }
                    let Some(src) = self.nominal_in(i, &e.request) else { continue };
                    let (from, to) = (self.protocol(i), self.protocol(j));
                    let what = format!("any {} (the target's {} sends no requests)", e.request, e.sender);
                    self.cases.insert(ConvertCase { from: from.clone(), to: to.clone(), place: e.request.clone(), what, outcome: "error `NotInTarget`".into() });
                    if seen.insert(src.clone()) {
                        self.plan.no_requests.push(NoRequests { src, from, to, place: e.request.clone() });
                    }
                }
            }
        }
    }

    /// The plan with its cases in table order: by version order of (from, to), then place and what.
    fn finish(mut self) -> ConvertPlan {
        let versions = &self.plan.versions;
        let order = |p: &str| versions.iter().position(|v| v.protocol == p).unwrap_or(usize::MAX);
        let mut rows: Vec<ConvertCase> = std::mem::take(&mut self.cases).into_iter().collect();
        rows.sort_by(|a, b| (order(&a.from), order(&a.to), &a.place, &a.what).cmp(&(order(&b.from), order(&b.to), &b.place, &b.what)));
        self.plan.cases = rows;
        self.plan
    }
}
