//! After the first plan: LM-cut's bound for the initial state, the
//! optimality probe (A* with h_max bounded by the plan's cost, which on
//! small state spaces proves the plan optimal or finds an optimal one) or,
//! where that does not run, the exhaustion probe (a breadth-first
//! exploration from the plan's states, which proves the same where it
//! expands every reachable state within a small budget,
//! [`exhaust_state_space`]) and the improvement restarts (weighted A*
//! with decreasing weights, pruned by the best cost so far), within
//! budgets counted in evaluations so that
//! results stay deterministic ([`SearchOptions::improve_plans`],
//! [`SearchOptions::anytime`]). The default's eager restarts may run on a
//! second thread, beside its lazy ones, with the same results
//! ([`lazy_and_eager_side_by_side`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

use pddl_ground::Task;
use pddl_ground::task::Cost;

use crate::heuristics::cache::{EvaluationCache, MAX_CACHE_BYTES};
use crate::heuristics::lmcut::LmCut;
use crate::heuristics::{self, CostType, Heuristic};
use crate::open_lists::AlternationOpenList;
use crate::plan_improvement::{Exhaustion, Explored, exhaust_state_space};
use crate::search_algorithms::eager::EagerParams;
use crate::search_algorithms::lazy::{self, LazyParams};
use crate::search_algorithms::{IterationResult, MemoryShare, Monitor};
use crate::successor::StateSpace;
use crate::turns::{
    PROGRESS_BACKLOG, ProgressSender, background_monitor, forward_progress, join, with_budget,
};
use crate::{
    Engine, FOLLOW_FORCED, HeuristicKind, Outcome, Plan, SearchOptions, Statistics, astar_params,
    create_heuristic, eager_one_heuristic, improve_if, may_use_second_core, neighbourhood_budget,
    search_space,
};

/// How the work after the first plan ended.
pub(crate) struct AfterFirstPlan {
    /// The best plan is proven optimal.
    pub proven_optimal: bool,
    /// A lower bound on every plan's cost (0: none known).
    pub lower_bound: Cost,
    /// What the neighbourhood search's budget compares the plan with: the
    /// lower bound, with LM-cut's value by its original definition in
    /// place of the refined one (see `InitialBounds::gap`).
    pub gap_bound: Cost,
    /// Restarts ran.
    pub restarted: bool,
    /// The costlier of the lazy and the eager restarts' plans (with
    /// `--anytime` on two threads; otherwise the lazy restarts' plan where
    /// the eager ones found a cheaper one): the neighbourhood search starts
    /// from it too, since near a costlier plan there may be a cheaper one
    /// than near the best (woodworking p13 with `--anytime`: 445 near the
    /// lazy restarts' 595, nothing cheaper near the eager ones' 465).
    pub runner_up: Option<Plan>,
    /// What the exhaustion probe explored around the first plan without
    /// exhausting the state space, for the neighbourhood search around
    /// the final plan if that is still the first.
    pub explored: Option<Explored>,
}

/// Tries to prove `best` (the first plan, if any, already shortened)
/// optimal with LM-cut's bound and the optimality probe, and otherwise
/// improves it with restarts, where the options ask for either
/// ([`SearchOptions::improve_plans`], [`SearchOptions::anytime`]) and
/// `proven_optimal` does not hold already. `deciding_turn_evaluated`
/// counts the evaluations of the first search's turn that found the plan.
pub(crate) fn after_first_plan<'t>(
    space: &mut StateSpace<'t>,
    options: &SearchOptions,
    monitor: &mut Monitor<'_>,
    best: &mut Option<Plan>,
    deciding_turn_evaluated: u64,
    mut proven_optimal: bool,
) -> AfterFirstPlan {
    let task = space.task;
    let improve = options.improve_plans && !proven_optimal;
    let mut restarted = false;
    let mut runner_up = None;
    // A plan no costlier than an admissible estimate of the initial state
    // is optimal: nothing to improve, and restarts stop at that cost.
    let initial = match &best {
        Some(plan) if !proven_optimal && (improve || options.anytime) => {
            initial_bounds(space, plan.cost, monitor.stats.evaluated)
        }
        _ => InitialBounds::default(),
    };
    proven_optimal |= best.as_ref().is_some_and(|plan| plan.cost <= initial.lower);
    let mut lower_bound = initial.lower;
    let mut gap_bound = initial.gap;
    let not_restarted = |proven_optimal, lower_bound, gap_bound, explored| AfterFirstPlan {
        proven_optimal,
        lower_bound,
        gap_bound,
        restarted: false,
        runner_up: None,
        explored,
    };
    let plan_cost = match &best {
        Some(plan) if !proven_optimal && (options.anytime || improve) => plan.cost,
        _ => return not_restarted(proven_optimal, lower_bound, gap_bound, None),
    };
    // The restarts' evaluations without --anytime (see `restart_allowance`),
    // of which the optimality probe spends a share first (with --anytime
    // they only size the probe).
    let RestartAllowance {
        evaluations: mut allowance,
        raised_to_floor,
    } = restart_allowance(
        task,
        deciding_turn_evaluated,
        monitor.stats.evaluated,
        plan_cost,
        initial,
    );
    let probe_budget = if raised_to_floor {
        (allowance * OPTIMALITY_PROBE_SHARE / 100)
            .min(OPTIMALITY_PROBE_WORK / relaxed_size(task).max(1))
    } else {
        0
    };
    // Where the optimality probe does not run (only budgets raised to a
    // floor can spare its share, see `OPTIMALITY_PROBE_SHARE`), a small
    // state space explored whole proves the plan optimal (or finds one
    // that is) for less than the restarts would spend.
    let mut explored = None;
    if probe_budget == 0 {
        let budget = neighbourhood_budget(monitor.stats.generated, plan_cost, gap_bound)
            .min(EXHAUSTION_PROBE_APPLICATIONS);
        let exhaustion = match best.as_ref() {
            Some(plan) => exhaust_state_space(space, plan, budget, &monitor.stop_check()),
            None => Exhaustion::NotReplayed,
        };
        match exhaustion {
            Exhaustion::Optimal(optimal) => {
                // An optimal plan as cheap as the first leaves it as it is.
                if optimal.cost < plan_cost {
                    monitor.observer.on_plan(task, &optimal);
                    *best = Some(optimal);
                }
                return not_restarted(true, lower_bound, gap_bound, None);
            }
            Exhaustion::Unfinished(unfinished) => explored = Some(*unfinished),
            Exhaustion::NotReplayed => {}
        }
    } else {
        let before = monitor.stats.evaluated;
        match optimality_probe(space, plan_cost, probe_budget, monitor) {
            Probe::Proven => proven_optimal = true,
            Probe::Cheaper(cheaper) => {
                monitor.observer.on_plan(task, &cheaper);
                *best = Some(cheaper);
                proven_optimal = true;
            }
            Probe::Undecided {
                lower_bound: reached,
            } => {
                lower_bound = lower_bound.max(reached);
                gap_bound = gap_bound.max(reached);
            }
        }
        allowance = allowance.saturating_sub(monitor.stats.evaluated - before);
    }
    if !proven_optimal {
        let budget = (!options.anytime).then(|| monitor.stats.evaluated + allowance);
        monitor.set_evaluation_budget(budget);
        // With --anytime the restarts would take all the time there is;
        // the last part of it is kept for the neighbourhood search that
        // `search` runs after them.
        let time_limit = monitor.time_limit();
        if options.anytime && improve {
            monitor.set_time_limit(time_limit.map(|limit| {
                let elapsed = monitor.elapsed();
                elapsed.saturating_add(
                    limit
                        .saturating_sub(elapsed)
                        .mul_f64(1.0 - ANYTIME_NEIGHBOURHOOD_SHARE),
                )
            }));
        }
        // After a greedy search with preferred operators, LAMA's lazy
        // restarts first, then eager ones (see `LAZY_RESTARTS_SHARE`).
        let lazy_first = matches!(options.engine, Engine::LazyGreedy | Engine::EagerGreedy)
            && options.preferred_operators;
        let mut restarts = Restarts {
            improve,
            lower_bound,
            heuristic: options.heuristic,
            parallel_evaluation: options.parallel_evaluation,
            lazy: lazy_first,
            speculation: None,
            kept: None,
        };
        if lazy_first {
            // Shared by the two kinds (without --anytime).
            let shares = budget.map(|total| {
                let lazy = (total - monitor.stats.evaluated) * LAZY_RESTARTS_SHARE / 100;
                RestartShares {
                    lazy,
                    eager: total - monitor.stats.evaluated - lazy,
                }
            });
            // The eager restarts get a thread of their own where they have
            // enough to do and the options allow a second thread (the core
            // count is read only then: the first reading costs about a
            // tenth of a millisecond).
            let beside = shares
                .is_none_or(|shares| shares.eager >= SIDE_BY_SIDE_RESTART_EVALUATIONS)
                && may_use_second_core(options);
            let side_by_side = beside
                .then(|| {
                    lazy_and_eager_side_by_side(
                        space,
                        options,
                        monitor,
                        &mut restarts,
                        best,
                        shares,
                    )
                })
                .flatten();
            let ended = match (side_by_side, shares) {
                (Some(ended), _) => ended,
                (None, Some(shares)) => {
                    lazy_then_eager(space, monitor, &mut restarts, best, shares)
                }
                (None, None) => KindsEnded {
                    proven_optimal: restarts.run(space, monitor, best),
                    runner_up: None,
                },
            };
            proven_optimal = ended.proven_optimal;
            runner_up = ended.runner_up;
        } else {
            proven_optimal = restarts.run(space, monitor, best);
        }
        monitor.set_evaluation_budget(None);
        monitor.set_time_limit(time_limit);
        restarted = true;
    }
    AfterFirstPlan {
        proven_optimal,
        lower_bound,
        gap_bound,
        restarted,
        runner_up,
        explored,
    }
}

/// The evaluations of the default's two kinds of restarts after a greedy
/// first search with preferred operators ([`LAZY_RESTARTS_SHARE`]).
#[derive(Clone, Copy)]
struct RestartShares {
    lazy: u64,
    eager: u64,
}

/// The eager restarts get a thread of their own beside the lazy ones
/// where they have at least this many evaluations (and the options allow
/// a second thread): a thread and a second copy of the heuristic cost
/// about as much as a small task's whole search.
const SIDE_BY_SIDE_RESTART_EVALUATIONS: u64 = 1_000;

/// The default's restarts after a greedy first search with preferred
/// operators: LAMA's lazy ones for `shares.lazy` evaluations, then eager
/// ones for `shares.eager` from the lazy ones' best plan.
fn lazy_then_eager<'t>(
    space: &mut StateSpace<'t>,
    monitor: &mut Monitor<'_>,
    restarts: &mut Restarts<'_, 't>,
    best: &mut Option<Plan>,
    shares: RestartShares,
) -> KindsEnded {
    monitor.set_evaluation_budget(Some(monitor.stats.evaluated + shares.lazy));
    restarts.lazy = true;
    if restarts.run(space, monitor, best) {
        return KindsEnded {
            proven_optimal: true,
            runner_up: None,
        };
    }
    let lazy_best = best.clone();
    monitor.set_evaluation_budget(Some(monitor.stats.evaluated + shares.eager));
    restarts.lazy = false;
    let proven_optimal = restarts.run(space, monitor, best);
    let runner_up = lazy_best.filter(|lazy| best.as_ref().is_some_and(|b| b.cost < lazy.cost));
    KindsEnded {
        proven_optimal,
        runner_up,
    }
}

/// The lazy restarts on this thread and eager ones beside them on a
/// second thread. The memory limit covers both threads together.
///
/// With `shares`, [`lazy_then_eager`] sooner: the eager restarts start
/// speculatively, from the first plan, and again from each plan the lazy
/// restarts find. Once the lazy restarts end, the eager run that started
/// from their best plan is the one [`lazy_then_eager`] would make after
/// them (the earlier runs are stopped and not counted), so the plans,
/// outcome and counts are the same, unless a limit or the caller stops
/// the search; only the wall time shrinks, by however long that run had
/// been going when the lazy restarts ended.
///
/// Without (`--anytime`), both kinds run until the time limit, the lazy
/// ones as they would alone and the eager ones from the first plan, each
/// bounded by its own plans; the cheaper plan is kept (each kind wins
/// where the other stalls, see [`LAZY_RESTARTS_SHARE`]). Where the eager
/// restarts prove their plan optimal first, the lazy ones still run to
/// the time limit, and the plan of the kind that lost is the runner-up.
///
/// `None` where no second thread could be started (nothing has run then).
fn lazy_and_eager_side_by_side<'t>(
    space: &mut StateSpace<'t>,
    options: &SearchOptions,
    monitor: &mut Monitor<'_>,
    restarts: &mut Restarts<'_, 't>,
    best: &mut Option<Plan>,
    shares: Option<RestartShares>,
) -> Option<KindsEnded> {
    let first = best.clone()?;
    let task = space.task;
    let speculation = Speculation::new(first);
    // Set while the lazy restarts run: the eager ones evaluate on both
    // cores only after that.
    let lazy_running = AtomicBool::new(true);
    let (foreground_share, background_share) = MemoryShare::pair();
    let (sender, progress) = sync_channel(PROGRESS_BACKLOG);
    let deadline = monitor.deadline();
    let memory_limit = monitor.memory_limit();
    let (improve, lower_bound, heuristic, parallel_evaluation) = (
        restarts.improve,
        restarts.lower_bound,
        restarts.heuristic,
        restarts.parallel_evaluation,
    );
    thread::scope(|scope| {
        // However this closure ends (a panic included), the eager restarts
        // stop, so that the scope's join cannot wait for them long.
        let _stop = speculation.stop_on_drop();
        let eager = || {
            let mut space = search_space(task, options);
            let mut observer = ProgressSender(sender);
            let mut restarts = Restarts {
                improve,
                lower_bound,
                heuristic,
                parallel_evaluation,
                lazy: false,
                speculation: None,
                kept: None,
            };
            let mut completed: Option<EagerRun> = None;
            while let Some((generation, plan)) =
                speculation.next_run(completed.as_ref().map(|run| run.generation))
            {
                let mut monitor = background_monitor(
                    deadline,
                    memory_limit,
                    background_share.clone(),
                    &speculation.stop_run,
                    &mut observer,
                );
                monitor.share_second_core(Some(&lazy_running));
                monitor.set_evaluation_budget(shares.map(|shares| shares.eager));
                let mut eager_best = Some(plan);
                let proven = restarts.run(&mut space, &mut monitor, &mut eager_best);
                monitor.release_shared_memory();
                if !speculation.stop_run.load(Ordering::Relaxed) {
                    completed = Some(EagerRun {
                        generation,
                        best: eager_best,
                        proven,
                        stats: monitor.stats,
                    });
                }
            }
            completed
        };
        let builder = thread::Builder::new().name("eager-restarts".into());
        let handle = builder.spawn_scoped(scope, eager).ok()?;
        monitor.share_memory(Some(foreground_share));
        let evaluated = monitor.stats.evaluated;
        monitor.set_evaluation_budget(shares.map(|shares| evaluated + shares.lazy));
        let mut lazy = Restarts {
            lazy: true,
            speculation: shares.is_some().then_some(&speculation),
            kept: restarts.kept.take(),
            ..*restarts
        };
        let lazy_proven = lazy.run(space, monitor, best);
        restarts.kept = lazy.kept.take();
        monitor.release_shared_memory();
        monitor.share_memory(None);
        lazy_running.store(false, Ordering::Release);
        if lazy_proven {
            // Run one after the other, the eager restarts would not have
            // started: their work is not counted.
            speculation.stop();
            join(handle);
            return Some(KindsEnded {
                proven_optimal: true,
                runner_up: None,
            });
        }
        let last = speculation.last_plan();
        // Reports queued while the lazy restarts ran may come from eager
        // runs stopped since, with their own counts: only later ones are
        // shown.
        while progress.try_recv().is_ok() {}
        forward_progress(&progress, &speculation.stop_run, monitor);
        Some(match join(handle) {
            Some(run) if run.generation == last => {
                monitor.stats.absorb(&run.stats);
                let other = keep_cheaper(task, monitor, best, run.best);
                KindsEnded {
                    proven_optimal: run.proven,
                    runner_up: other,
                }
            }
            // Stopped by a limit or the caller.
            _ => KindsEnded {
                proven_optimal: false,
                runner_up: None,
            },
        })
    })
}

/// How the two kinds of restarts ended ([`lazy_then_eager`],
/// [`lazy_and_eager_side_by_side`]).
struct KindsEnded {
    /// The best plan is proven optimal.
    proven_optimal: bool,
    /// The plan of the kind whose plan was not kept, where there is one
    /// (without `--anytime`, the lazy restarts' plan where the eager ones
    /// found a cheaper one; where they did not, none, or on two threads
    /// the best plan itself, which the neighbourhood search leaves out).
    runner_up: Option<Plan>,
}

/// An eager run of [`lazy_and_eager_side_by_side`] that was not stopped.
struct EagerRun {
    /// The generation of the plan it started from ([`Speculation`]).
    generation: u64,
    best: Option<Plan>,
    proven: bool,
    stats: Statistics,
}

/// The plans the eager restarts of [`lazy_and_eager_side_by_side`] start
/// from: the first plan, then each plan the lazy restarts find; a new one
/// stops the eager run from the one before.
struct Speculation {
    latest: Mutex<LatestPlan>,
    changed: Condvar,
    /// Stops the current eager run (a newer plan, or the end).
    stop_run: AtomicBool,
}

/// See [`Speculation`].
struct LatestPlan {
    /// Counts the plans, the first one 0.
    generation: u64,
    plan: Option<Plan>,
    /// No plan will follow: the lazy restarts have ended.
    last: bool,
    /// No eager run is wanted any more.
    stopped: bool,
}

impl Speculation {
    fn new(first: Plan) -> Self {
        Speculation {
            latest: Mutex::new(LatestPlan {
                generation: 0,
                plan: Some(first),
                last: false,
                stopped: false,
            }),
            changed: Condvar::new(),
            stop_run: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> MutexGuard<'_, LatestPlan> {
        self.latest.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The lazy restarts found `plan`: the eager ones start again from it.
    fn publish(&self, plan: &Plan) {
        let mut latest = self.lock();
        latest.generation += 1;
        latest.plan = Some(plan.clone());
        // Under the lock, so that a run started from an older plan after
        // this is impossible (`next_run` clears it under the lock).
        self.stop_run.store(true, Ordering::Relaxed);
        drop(latest);
        self.changed.notify_all();
    }

    /// The lazy restarts have ended: returns the generation of their last
    /// plan, the one whose eager run counts.
    fn last_plan(&self) -> u64 {
        let mut latest = self.lock();
        latest.last = true;
        let generation = latest.generation;
        drop(latest);
        self.changed.notify_all();
        generation
    }

    /// Ends the eager restarts.
    fn stop(&self) {
        self.lock().stopped = true;
        self.stop_run.store(true, Ordering::Relaxed);
        self.changed.notify_all();
    }

    /// Stops the eager restarts when dropped.
    fn stop_on_drop(&self) -> impl Drop + '_ {
        struct StopSpeculation<'s>(&'s Speculation);
        impl Drop for StopSpeculation<'_> {
            fn drop(&mut self) {
                self.0.stop();
            }
        }
        StopSpeculation(self)
    }

    /// The generation and plan the next eager run starts from; `None` once
    /// the run completed last (generation `done`) is the one that counts,
    /// or the restarts are stopped. Waits for a newer plan or the end.
    fn next_run(&self, done: Option<u64>) -> Option<(u64, Plan)> {
        let mut latest = self.lock();
        loop {
            if latest.stopped || (latest.last && done == Some(latest.generation)) {
                return None;
            }
            if let Some(plan) = latest.plan.take() {
                self.stop_run.store(false, Ordering::Relaxed);
                return Some((latest.generation, plan));
            }
            if latest.last {
                // The last plan's run was stopped (by a limit or the
                // caller): nothing more to run.
                return None;
            }
            latest = self
                .changed
                .wait(latest)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// Keeps `other` in `best` (passing it to the observer) if it is cheaper;
/// returns the plan not kept.
fn keep_cheaper(
    task: &Task,
    monitor: &mut Monitor<'_>,
    best: &mut Option<Plan>,
    other: Option<Plan>,
) -> Option<Plan> {
    match other {
        Some(plan) if best.as_ref().is_none_or(|best| plan.cost < best.cost) => {
            monitor.observer.on_plan(task, &plan);
            best.replace(plan)
        }
        other => other,
    }
}

/// Weights of the anytime restarts after the first plan; the last one
/// repeats until an iteration exhausts its (cost-bounded) space.
const ANYTIME_WEIGHTS: [f64; 5] = [5.0, 3.0, 2.0, 1.5, 1.0];

/// What [`optimality_probe`] found out about a plan.
pub(crate) enum Probe {
    /// No plan costs less.
    Proven,
    /// This plan costs less, and none less than it.
    Cheaper(Plan),
    /// The budget ran out (or a limit stopped it) first, with no plan
    /// cheaper than `lower_bound` (the greatest `f` A* expanded).
    Undecided {
        /// A lower bound on the cost of every plan.
        lower_bound: Cost,
    },
}

/// A* with an admissible heuristic, pruned at `plan_cost`, for at most
/// `budget` more evaluations: on small state spaces it proves a plan
/// optimal, or finds an optimal one, for less than restarts spend.
pub(crate) fn optimality_probe(
    space: &mut StateSpace<'_>,
    plan_cost: Cost,
    budget: u64,
    monitor: &mut Monitor<'_>,
) -> Probe {
    monitor.reset_iteration();
    let mut h = create_heuristic(
        HeuristicKind::HMax,
        space.task,
        CostType::Real,
        None,
        monitor,
    );
    let params = EagerParams {
        stop_at_f_bound: true,
        ..astar_params(1.0, plan_cost)
    };
    let (result, _) = with_budget(monitor, budget, |monitor| {
        eager_one_heuristic(space, h.as_mut(), params, None, monitor)
    });
    match result {
        IterationResult {
            plan: Some(plan), ..
        } => Probe::Cheaper(plan),
        IterationResult {
            outcome: Outcome::Unsolvable,
            ..
        } => Probe::Proven,
        _ => Probe::Undecided {
            lower_bound: monitor.best_f.unwrap_or(0),
        },
    }
}

/// The heuristic evaluations the default's improvement restarts get after
/// a first plan of `plan_cost`, found by a turn that used
/// `deciding_turn_evaluated` of all `evaluated` so far, with `initial`
/// LM-cut's values of the initial state.
///
/// Three times the evaluations the deciding turn used, the part beyond
/// once capped at [`RESTART_EXTRA_EVALUATIONS_CAP`] (so a long first
/// search is followed by at most about as long restarts). Turns that
/// spent their budgets without a plan before the one that found it count
/// up to [`FAILED_TURNS_EVALUATIONS_COUNTED`]: on Puzznic level 090,
/// counting all 750 000 of them kept restarts that found nothing running
/// 29 s after a plan found in 15 s, while woodworking's restarts need the
/// 50 000 of its first turn to cut its plans' costs by a third. At least
/// [`restart_floor`]. A unit-cost plan close to LM-cut's bound (below
/// [`NARROW_GAP_PERCENT`] of it) gets twice the deciding turn's
/// evaluations only ([`narrow_gap_allowance`]).
fn restart_allowance(
    task: &Task,
    deciding_turn_evaluated: u64,
    evaluated: u64,
    plan_cost: Cost,
    initial: InitialBounds,
) -> RestartAllowance {
    if let Some(evaluations) =
        narrow_gap_allowance(task, deciding_turn_evaluated, plan_cost, initial)
    {
        return RestartAllowance {
            evaluations,
            raised_to_floor: false,
        };
    }
    let gap_bound = initial.gap;
    // (A climb's states count as many evaluations as the configured
    // search makes per state, so the deciding count may exceed what was
    // evaluated.)
    let failed_turns = evaluated.saturating_sub(deciding_turn_evaluated);
    let earned = deciding_turn_evaluated
        + (deciding_turn_evaluated * 2).min(RESTART_EXTRA_EVALUATIONS_CAP)
        + failed_turns.min(FAILED_TURNS_EVALUATIONS_COUNTED)
        + IMPROVEMENT_EXTRA_EVALUATIONS;
    let floor = restart_floor(task, plan_cost, gap_bound);
    RestartAllowance {
        evaluations: earned.max(floor),
        raised_to_floor: floor > earned,
    }
}

/// The restarts' evaluations for a plan close to its bound: where every
/// operator costs 1 and the plan costs less than [`NARROW_GAP_PERCENT`] of
/// LM-cut's (refined) value of the initial state, twice the evaluations
/// of the turn that found it, without [`IMPROVEMENT_EXTRA_EVALUATIONS`]
/// and the failed turns' share; `None` otherwise. Such a plan is a step
/// or two from the bound, and a cheaper one rarely exists: on the 60
/// tasks of the reference comparison, the 12 such plans (logistics,
/// satellite p01–p03, depot p01, driverlog p01, rovers p02, zenotravel
/// p05) stay the same, their searches 0.8–1.4 ms → 0.2–0.7 ms, which made
/// the whole processes on logistics faster than ferroplan's; on all
/// shared tasks two plans took a step more (miconic s3-0 10 → 11,
/// satellite p11 34 → 35).
fn narrow_gap_allowance(
    task: &Task,
    deciding_turn_evaluated: u64,
    plan_cost: Cost,
    initial: InitialBounds,
) -> Option<u64> {
    let narrow = !task.has_general_costs()
        && initial.lower > 0
        && !costs_at_least_percent_of_bound(plan_cost, initial.lower, NARROW_GAP_PERCENT);
    narrow.then(|| deciding_turn_evaluated.saturating_mul(2))
}

/// See [`narrow_gap_allowance`].
const NARROW_GAP_PERCENT: Cost = 120;

/// The restarts' evaluations ([`restart_allowance`]).
struct RestartAllowance {
    /// How many.
    evaluations: u64,
    /// Whether [`restart_floor`] set them, above what the first search
    /// earned.
    raised_to_floor: bool,
}

/// The least evaluations the default's restarts get. Where operators cost
/// other than 1, the greedy first search, which ignores costs, says least
/// about what a cheap plan takes, so restarts get at least
/// [`GENERAL_COST_RESTART_EVALUATIONS`]; where they all cost 1, so do
/// plans far above `gap_bound` (`InitialBounds::gap`)
/// ([`WIDE_GAP_RESTART_EVALUATIONS`]); otherwise there is no floor (0).
fn restart_floor(task: &Task, plan_cost: Cost, gap_bound: Cost) -> u64 {
    if task.has_general_costs() {
        GENERAL_COST_RESTART_EVALUATIONS
    } else if leaves_wide_gap(plan_cost, gap_bound) {
        WIDE_GAP_RESTART_EVALUATIONS
    } else {
        0
    }
}

/// The percentage of the restarts' evaluations that the optimality probe
/// spends first where [`restart_floor`] set them, at most
/// [`OPTIMALITY_PROBE_WORK`] divided by the size of the task's relaxation
/// ([`relaxed_size`]): an h_max evaluation takes time about proportional
/// to that size, so the probe costs at most about as much as 128
/// evaluations on a task of size 1 000 (gripper prob05 has size 544, and
/// the probe proves its first plan optimal with 92). On failure its
/// evaluations come out of the restarts' budget, which keeps the time the
/// same. Only the floor's budgets have room for that: where the first
/// search earned the restarts' budget (a few hundred evaluations on small
/// tasks), a probe taken out of it left the restarts short of their last
/// improvement on 4 of the 640 shared tasks (driverlog p10 17 → 20, p03,
/// p07, satellite p17), and a probe on top of it made logistics 7–8 %
/// slower.
const OPTIMALITY_PROBE_SHARE: u64 = 33;
/// See [`OPTIMALITY_PROBE_SHARE`].
const OPTIMALITY_PROBE_WORK: u64 = 128_000;

/// The most operator applications the exhaustion probe
/// ([`exhaust_state_space`]) spends after the first plan, and no more than
/// the neighbourhood search around that plan would
/// ([`neighbourhood_budget`]), which goes on from the probe's graph where
/// the plan stays the final one. Enough for blocks-world with five blocks
/// (2 090 applications, 866 states) and gripper with four balls (1 152);
/// where the probe gives up and the restarts then change the plan, it
/// costs up to about 0.2 ms (driverlog p03: 5 % more instructions).
const EXHAUSTION_PROBE_APPLICATIONS: u64 = 2_500;

/// The number of facts, operators, and facts in their preconditions and
/// effects (conditional ones included) of `task`: what a relaxation
/// heuristic's exploration of one state touches at most.
fn relaxed_size(task: &Task) -> u64 {
    let operators: usize = task
        .operators
        .iter()
        .map(|op| {
            1 + op.precondition.pos.len()
                + op.add.len()
                + op.conditional
                    .iter()
                    .map(|ce| 1 + ce.condition.pos.len() + ce.add.len())
                    .sum::<usize>()
        })
        .sum();
    (task.facts.len() + operators) as u64
}

/// The share of the time left after the first plan that `--anytime` keeps
/// for the neighbourhood search on the restarts' best plan.
const ANYTIME_NEIGHBOURHOOD_SHARE: f64 = 0.1;

/// Evaluations the default's restarts may spend beyond as many as the
/// first search's.
const IMPROVEMENT_EXTRA_EVALUATIONS: u64 = 200;
/// The most evaluations the default's restarts get beyond as many as
/// the first search's deciding turn used (they get up to twice as many
/// more). LAMA-style restarts, like the first search, evaluate two
/// heuristics per state; on the 60 tasks of `benches/compare.sh`, with
/// lazy restarts alone, three times the first search's evaluations gave
/// plans no longer than both references' on 55, against 52 with twice and
/// 51 with once as many (eager restarts: 51 with once, twice or three
/// times).
pub(crate) const RESTART_EXTRA_EVALUATIONS_CAP: u64 = 50_000;
/// The percentage of the default's restart budget that LAMA's lazy
/// restarts get after a greedy first search with preferred operators;
/// eager weighted A* restarts from their best plan get the rest. Each kind
/// wins where the other stalls: lazy ones on elevators, visitall,
/// openstacks and Puzznic (elevators p05 132 → 92, visitall problem20
/// 537 → 399), eager ones on woodworking, driverlog, sokoban and
/// depots-numeric (woodworking p05 825 with lazy restarts alone against
/// 535, driverlog p08 35 against 23); half and half kept nearly every
/// gain of both (`benches/coverage.sh`).
const LAZY_RESTARTS_SHARE: u64 = 50;
/// Evaluations the default's restarts may spend at least where some
/// operator costs other than 1 (elevators' plans from the first search
/// cost 20–40 % more than after this many).
const GENERAL_COST_RESTART_EVALUATIONS: u64 = 10_000;
/// Evaluations the default's restarts may spend at least where every
/// operator costs 1 but the first plan costs at least
/// [`WIDE_GAP_PERCENT`] of the initial state's LM-cut value by its
/// original definition (`InitialBounds::gap`): a plan that
/// may be that far from optimal is worth a longer look, while for a
/// plan close to its bound the restarts mostly search for a cheaper plan
/// that does not exist (the floor for every unit-cost task made 7
/// millisecond tasks of the reference comparison 3–5 times slower).
pub(crate) const WIDE_GAP_RESTART_EVALUATIONS: u64 = 5_000;
/// See [`WIDE_GAP_RESTART_EVALUATIONS`].
const WIDE_GAP_PERCENT: Cost = 160;

/// Whether a plan of `cost` may be far from optimal by `bound`, LM-cut's
/// value by its original definition (0: not computed, nothing known).
pub(crate) fn leaves_wide_gap(cost: Cost, bound: Cost) -> bool {
    costs_at_least_percent_of_bound(cost, bound, WIDE_GAP_PERCENT)
}

/// Whether `cost` is at least `percent` % of the lower bound `bound`
/// (false where no bound is known, `bound` 0).
pub(crate) fn costs_at_least_percent_of_bound(cost: Cost, bound: Cost, percent: Cost) -> bool {
    bound > 0 && cost.saturating_mul(100) >= bound.saturating_mul(percent)
}

/// The most evaluations of first-search turns that ended without a plan
/// that count towards the restarts' budget.
pub(crate) const FAILED_TURNS_EVALUATIONS_COUNTED: u64 = 100_000;

/// Anytime restarts after a first plan: weighted A* with decreasing
/// weights, pruning by the best cost so far (with `lazy`, LAMA's lazy
/// weighted A* iterations).
struct Restarts<'c, 't> {
    improve: bool,
    /// No plan costs less: one that costs this much ends the restarts.
    lower_bound: Cost,
    heuristic: HeuristicKind,
    parallel_evaluation: Option<u64>,
    /// LAMA's iterations: lazy weighted A* with preferred operators,
    /// alternating the heuristic with goal count (after a greedy first
    /// search that uses preferred operators, see `LAZY_RESTARTS_SHARE`);
    /// otherwise eager weighted A* with the heuristic alone.
    lazy: bool,
    /// Lazy restarts pass each plan they find here, for eager restarts
    /// to start from on another thread ([`lazy_and_eager_side_by_side`]).
    speculation: Option<&'c Speculation>,
    /// The heuristic, built once for all restarts of both kinds unless it
    /// keeps per-state data, which belongs to one search (tables such as
    /// h_FF's relaxed task or the pattern databases are the same every
    /// time; each build of h_FF's is about 1 % of a whole run on blocks
    /// probBLOCKS-5-0), and then with its values remembered per state
    /// across the restarts ([`heuristics::cache`]).
    kept: Option<Box<dyn heuristics::Heuristic + 't>>,
}

impl<'t> Restarts<'_, 't> {
    /// Improves `best` (which holds a plan) until an iteration fails to
    /// find a cheaper plan or a limit stops it; returns whether `best` was
    /// proven optimal (a bounded iteration exhausted its space).
    fn run(
        &mut self,
        space: &mut StateSpace<'t>,
        monitor: &mut Monitor<'_>,
        best: &mut Option<Plan>,
    ) -> bool {
        let task = space.task;
        let mut weights = ANYTIME_WEIGHTS
            .iter()
            .copied()
            .chain(std::iter::repeat(1.0));
        while let Some(bound) = best.as_ref().map(|p| p.cost) {
            let weight = weights.next().unwrap_or(1.0);
            if bound <= self.lower_bound {
                return true;
            }
            monitor.reset_iteration();
            let params = astar_params(weight, bound);
            let h = match self.kept.take() {
                Some(h) if !h.is_path_dependent() => self.kept.insert(h),
                _ => {
                    let h = create_heuristic(
                        self.heuristic,
                        task,
                        CostType::PlusOne,
                        self.parallel_evaluation,
                        monitor,
                    );
                    let cache_bytes = monitor.memory_limit().map_or(MAX_CACHE_BYTES, |limit| {
                        (limit / CACHE_SHARE_OF_MEMORY_LIMIT).min(MAX_CACHE_BYTES)
                    });
                    self.kept.insert(EvaluationCache::wrap(h, cache_bytes))
                }
            };
            let r = if self.lazy {
                let mut goal_count = heuristics::goal_count::GoalCount::new(task);
                let preferred = h.has_preferred_operators();
                let mut evaluators: Vec<&mut dyn heuristics::Heuristic> =
                    vec![h.as_mut(), &mut goal_count];
                let params = LazyParams {
                    priority: params.priority,
                    preferred,
                    bound,
                    follow_forced: FOLLOW_FORCED,
                };
                let few_key_values = params.priority.few_key_values(task);
                let open = AlternationOpenList::new(evaluators.len(), few_key_values);
                lazy::run(space, &mut evaluators, params, open, monitor)
            } else {
                eager_one_heuristic(space, h.as_mut(), params, self.parallel_evaluation, monitor)
            };
            let generated = monitor.stats.generated;
            match r
                .plan
                .map(|plan| improve_if(self.improve, space, plan, generated, &monitor.stop_check()))
            {
                Some(plan) if plan.cost < bound => {
                    if let Some(speculation) = self.speculation {
                        speculation.publish(&plan);
                    }
                    monitor.observer.on_plan(space.task, &plan);
                    *best = Some(plan);
                }
                _ if r.outcome == Outcome::Unsolvable => return true,
                _ => return false,
            }
        }
        false
    }
}

/// The restarts' evaluation cache takes at most this share of the memory
/// limit (and at most [`MAX_CACHE_BYTES`]), so that a tight limit leaves
/// room to the searches.
const CACHE_SHARE_OF_MEMORY_LIMIT: u64 = 8;

/// LM-cut's values of the initial state ([`initial_bounds`]); 0 where
/// not computed.
#[derive(Clone, Copy, Default)]
struct InitialBounds {
    /// LM-cut's value: a lower bound on the cost of every plan (0 if it
    /// sees a dead end, which a found plan refutes).
    lower: Cost,
    /// LM-cut's value by its original definition ([`LmCut::original`],
    /// without Fast Downward's refinements), what the budgets' floors
    /// compare a plan with ([`leaves_wide_gap`], the neighbourhood
    /// search's [`costs_at_least_percent_of_bound`]); they were tuned on
    /// it. Where goals share the facts that lead to them it is lower, and
    /// there greedy first plans were far from optimal: freecell p01's
    /// first plan costs 10 against its 4 (p03's 20 against 6), and the
    /// floor's restarts find the optimum, 8. The refined value is 8 there,
    /// as it is for rovers p01, whose first plan, costing 10, is optimal,
    /// so no ratio to it tells the two apart: compared with it, the
    /// floors cost freecell p01 and p03 and depot p02 a step each (one
    /// more than lama-first's or ferroplan's plan), and lower ratios gave
    /// floors to many millisecond tasks such as rovers p01.
    gap: Cost,
}

/// LM-cut's values of the initial state, with and without Fast
/// Downward's refinements ([`InitialBounds`]). Their cuts are at most `plan_cost`
/// each (integer costs of at least 1 each), each a pass over the relaxed
/// task like one h_FF evaluation; they are computed only when they are at
/// most the `evaluated` states the first search spent, so together they
/// cost at most about twice as much as that search.
fn initial_bounds(space: &mut StateSpace<'_>, plan_cost: Cost, evaluated: u64) -> InitialBounds {
    if plan_cost > evaluated {
        return InitialBounds::default();
    }
    let mut lmcut = LmCut::new(space.task, CostType::Real);
    let initial = space.initial_state();
    let mut fluents = Vec::new();
    let mut value = |lmcut: &mut LmCut| {
        lmcut
            .evaluate(space.view(&initial, &mut fluents), None)
            .unwrap_or(0)
    };
    let lower = value(&mut lmcut);
    if lower >= plan_cost {
        // The plan is optimal: no budget to size.
        return InitialBounds { lower, gap: lower };
    }
    lmcut.set_refined(false);
    InitialBounds {
        lower,
        gap: value(&mut lmcut),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TaskBuilder;

    /// A plan below 120 % of LM-cut's refined value gets twice the first
    /// turn's evaluations, whatever the original value says; at 120 %, with
    /// no bound, or with operator costs other than 1 the usual rule holds.
    #[test]
    fn a_plan_close_to_its_bound_gets_twice_the_first_turns_evaluations() {
        let mut b = TaskBuilder::new(2);
        b.op("step", &[0], &[1], &[]);
        let unit = b.build(&[0], &[1]);
        let bounds = |lower, gap| InitialBounds { lower, gap };
        let allowance = |task: &Task, cost, initial| {
            restart_allowance(task, 100, 100, cost, initial).evaluations
        };
        assert_eq!(allowance(&unit, 20, bounds(19, 10)), 200);
        assert_eq!(allowance(&unit, 23, bounds(20, 20)), 200);
        let usual = 100 + 200 + IMPROVEMENT_EXTRA_EVALUATIONS;
        assert_eq!(allowance(&unit, 24, bounds(20, 20)), usual);
        assert_eq!(allowance(&unit, 20, bounds(0, 0)), usual);
        let mut b = TaskBuilder::new(2);
        b.op_cost("costly", &[0], &[1], &[], 5);
        let general = b.build(&[0], &[1]);
        assert_eq!(
            allowance(&general, 6, bounds(5, 5)),
            GENERAL_COST_RESTART_EVALUATIONS
        );
    }
}
