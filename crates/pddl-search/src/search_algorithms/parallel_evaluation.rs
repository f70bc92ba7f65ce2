//! Evaluating an expansion's new states on two threads.
//!
//! Eager search evaluates the new successors of each expansion before it
//! admits them to the open list. Where the heuristic's value depends on
//! the state alone ([`Heuristic::fork`]), a helper thread with its own
//! copy of the heuristic takes some of those states while the search's
//! thread takes the others, and the search admits them in the order it
//! generated them. So the search, its plans and its counts are those of
//! one thread; only the wall time shrinks (by up to the share of time
//! spent in the heuristic: A* with h_max on Puzznic spends about 70 %
//! there).
//!
//! Each batch is one expansion's new states, and it is streamed: the
//! helper may take the first new state while the search's thread is still
//! generating the others. Both threads claim states one at a time from a
//! shared cursor tagged with the batch's number, so a claim of a batch the
//! search has left fails. The search's thread never depends on the helper:
//! it never blocks on a lock the helper may hold, and a state the helper
//! claimed but has not evaluated in time (its thread descheduled, say) the
//! search's thread evaluates itself. The helper starts only once the
//! search has made [`EVALUATIONS_BEFORE_HELPER`] evaluations that took
//! [`MIN_EVALUATION_TIME`] on average: cheaper ones cost less than handing
//! them over, and not while another search of the process holds the second
//! core (the default's background last turn, see the `turns` module): it
//! starts once that search has ended. Between batches it spins briefly
//! (the next batch usually follows within tens of microseconds), then
//! sleeps until woken.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering, Ordering::SeqCst};
use std::sync::{Mutex, PoisonError, TryLockError};
use std::thread::{self, Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

use pddl_ground::task::Cost;

use crate::heuristics::Heuristic;
use crate::search_algorithms::available_cores;
use crate::state::{StateLayout, StateView};

/// Evaluations a search makes on its own thread before the helper thread
/// may start, by default ([`crate::SearchOptions::parallel_evaluation`]):
/// small searches, such as most of the default's improvement restarts,
/// never pay for a thread (starting one costs about as much as solving a
/// small task).
pub const EVALUATIONS_BEFORE_HELPER: u64 = 1_000;

/// The average evaluation time below which the helper does not start
/// (checked again after each further [`EVALUATIONS_BEFORE_HELPER`]):
/// handing a state over and taking its value back costs about a
/// microsecond, and the search's thread waits for the helper's last state
/// of each batch. (A* with h_max on logistics 6-0, about 2 µs per state,
/// was slower with the helper.)
pub const MIN_EVALUATION_TIME: Duration = Duration::from_micros(5);

/// How long the helper spins for the next state before it sleeps.
const SPIN: Duration = Duration::from_micros(200);

/// The number before the first batch's: close to the wrap-around, so that
/// every search of more than a hundred batches (the tests' included)
/// crosses it.
const FIRST_BATCH: u32 = u32::MAX - 100;

/// A claim cursor or count: the batch number in the high half, an index
/// in the low half. Batch numbers wrap around; only consecutive batches
/// are ever compared.
fn tagged(batch: u32, index: usize) -> u64 {
    (u64::from(batch) << 32) | index as u64
}

fn batch_of(tag: u64) -> u32 {
    (tag >> 32) as u32
}

fn index_of(tag: u64) -> usize {
    (tag & 0xffff_ffff) as usize
}

/// An atomic on a cache line of its own, so that the helper spinning on
/// one does not slow the search's writes to another.
#[repr(align(128))]
struct Padded(AtomicU64);

/// What the two threads share.
struct Shared {
    /// The next state to claim (tagged with its batch).
    cursor: Padded,
    /// How many of the batch's states the helper may claim (tagged).
    published: Padded,
    /// The batch number and the states published so far, packed.
    states: Mutex<(u32, Vec<u64>)>,
    /// The helper's values: (batch, index, value).
    values: Mutex<Vec<(u32, usize, Option<Cost>)>>,
    /// The helper is about to sleep or sleeps.
    sleeping: AtomicBool,
    /// The helper is to end.
    stop: AtomicBool,
}

impl Shared {
    /// Claims the next state of batch `batch` below `limit`.
    fn claim(&self, batch: u32, limit: usize) -> Option<usize> {
        loop {
            let cursor = self.cursor.0.load(SeqCst);
            if batch_of(cursor) != batch || index_of(cursor) >= limit {
                return None;
            }
            if self
                .cursor
                .0
                .compare_exchange(cursor, cursor + 1, SeqCst, SeqCst)
                .is_ok()
            {
                return Some(index_of(cursor));
            }
        }
    }
}

/// Evaluates the packed state with `heuristic`.
fn evaluate_packed(
    heuristic: &mut dyn Heuristic,
    layout: &StateLayout,
    packed: &[u64],
    fluents: &mut Vec<f64>,
) -> Option<Cost> {
    layout.unpack_fluents(packed, fluents);
    let view = StateView {
        facts: layout.facts(packed),
        fluents,
    };
    heuristic.evaluate(view, None)
}

/// Runs `search` on `heuristic`, with a [`ParallelEvaluation`] when
/// `start_after` is `Some`. Its helper thread may start once the search
/// has made `start_after` evaluations (see [`MIN_EVALUATION_TIME`]), if
/// the heuristic has a [`Heuristic::fork`] and the machine has two or
/// more cores (both looked at only then: the core count reads cgroup
/// files, which costs about a tenth of a millisecond, as much as a small
/// search), and `second_core_taken` (another search's flag, set while it
/// runs) is clear; it has ended when this returns.
pub fn with_parallel_evaluation<R>(
    layout: &StateLayout,
    start_after: Option<u64>,
    second_core_taken: Option<&AtomicBool>,
    heuristic: &mut dyn Heuristic,
    search: impl FnOnce(&mut dyn Heuristic, Option<&mut ParallelEvaluation<'_, '_>>) -> R,
) -> R {
    let Some(start_after) = start_after else {
        return search(heuristic, None);
    };
    let shared = Shared {
        cursor: Padded(AtomicU64::new(0)),
        published: Padded(AtomicU64::new(0)),
        states: Mutex::new((0, Vec::new())),
        values: Mutex::new(Vec::new()),
        sleeping: AtomicBool::new(false),
        stop: AtomicBool::new(false),
    };
    thread::scope(|scope| {
        let mut parallel = ParallelEvaluation {
            scope,
            shared: &shared,
            second_core_taken,
            declined: false,
            layout: layout.clone(),
            helper: None,
            pending: Vec::new(),
            published: 0,
            batch: FIRST_BATCH,
            open: false,
            evaluations: 0,
            next_check: start_after,
            window: Duration::ZERO,
            window_evaluations: 0,
            fluents: Vec::new(),
            has_value: Vec::new(),
            average: Duration::ZERO,
        };
        search(heuristic, Some(&mut parallel))
        // Dropping `parallel` stops the helper; the scope joins it.
    })
}

/// The search thread's side: collects a batch of states, streaming them
/// to the helper thread, then evaluates the batch together with it.
pub struct ParallelEvaluation<'scope, 'env> {
    scope: &'scope Scope<'scope, 'env>,
    shared: &'env Shared,
    /// Set while another search holds the second core.
    second_core_taken: Option<&'env AtomicBool>,
    /// No helper will start (the heuristic has no fork, or one core).
    declined: bool,
    layout: StateLayout,
    helper: Option<ScopedJoinHandle<'scope, ()>>,
    /// The batch's states.
    pending: Vec<u64>,
    /// How many of them the helper may claim.
    published: usize,
    /// Number of the latest batch opened to the helper.
    batch: u32,
    /// The current batch is open to the helper.
    open: bool,
    evaluations: u64,
    /// Evaluation count at which to decide again whether to start the
    /// helper.
    next_check: u64,
    /// Time and count of this thread's evaluations since the last check.
    window: Duration,
    window_evaluations: u64,
    fluents: Vec<f64>,
    /// Per state of the batch: its value is in (evaluated on this thread
    /// or taken from the helper).
    has_value: Vec<bool>,
    /// Running average of this thread's evaluation time.
    average: Duration,
}

impl ParallelEvaluation<'_, '_> {
    /// Adds a packed state to the batch; the helper may start on it at
    /// once.
    pub fn push(&mut self, packed: &[u64]) {
        if self.pending.is_empty() {
            self.open_batch();
        }
        self.pending.extend_from_slice(packed);
        if self.open {
            self.publish();
        }
    }

    /// Opens a batch to the helper, if it runs.
    fn open_batch(&mut self) {
        if self.helper.is_none() {
            return;
        }
        let shared = self.shared;
        let mut states = match shared.states.try_lock() {
            Ok(states) => states,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => return, // this batch stays here
        };
        self.batch = self.batch.wrapping_add(1);
        self.published = 0;
        states.0 = self.batch;
        states.1.clear();
        drop(states);
        shared.published.0.store(tagged(self.batch, 0), SeqCst);
        shared.cursor.0.store(tagged(self.batch, 0), SeqCst);
        if shared.sleeping.load(SeqCst)
            && let Some(helper) = &self.helper
        {
            helper.thread().unpark();
        }
        self.open = true;
    }

    /// Hands the states not yet published to the helper, unless it holds
    /// the lock (then they wait for the next push, or stay with this
    /// thread).
    fn publish(&mut self) {
        let words = self.layout.words().max(1);
        let count = self.pending.len() / words;
        let shared = self.shared;
        let mut states = match shared.states.try_lock() {
            Ok(states) => states,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => return,
        };
        states
            .1
            .extend_from_slice(&self.pending[self.published * words..]);
        drop(states);
        self.published = count;
        shared.published.0.store(tagged(self.batch, count), SeqCst);
    }

    /// Evaluates the batch with `heuristic` (and the helper's copy of it)
    /// and empties it: `values[i]` is the value of the `i`-th state pushed
    /// (`None` for a dead end). Asks `stop` before each evaluation of this
    /// thread's (a batch is one expansion's new states, hundreds of
    /// expensive evaluations at worst); once it says stop, returns false
    /// at once with the batch dropped and `values` incomplete (the search
    /// must end then).
    pub fn evaluate(
        &mut self,
        heuristic: &mut dyn Heuristic,
        values: &mut Vec<Option<Cost>>,
        stop: &dyn Fn() -> bool,
    ) -> bool {
        let words = self.layout.words().max(1);
        let count = self.pending.len() / words;
        values.clear();
        values.resize(count, None);
        self.evaluations += count as u64;
        let started = Instant::now();
        let mut own = 0;
        if !self.open {
            for (i, packed) in self.pending.chunks_exact(words).enumerate() {
                if stop() {
                    self.pending.clear();
                    return false;
                }
                values[i] = evaluate_packed(heuristic, &self.layout, packed, &mut self.fluents);
            }
            own = count;
        } else {
            self.open = false;
            let shared = self.shared;
            self.has_value.clear();
            self.has_value.resize(count, false);
            while let Some(i) = shared.claim(self.batch, count) {
                if stop() {
                    // The helper's values of this batch are dropped with
                    // it: the next batch has another number.
                    self.pending.clear();
                    return false;
                }
                let packed = &self.pending[i * words..(i + 1) * words];
                values[i] = evaluate_packed(heuristic, &self.layout, packed, &mut self.fluents);
                self.has_value[i] = true;
                own += 1;
            }
            if own > 0 {
                let batch_average = started.elapsed() / own as u32;
                self.average = (self.average * 7 + batch_average) / 8;
            }
            // Take the helper's values; a state it claimed and has not
            // evaluated within a few evaluation times (its thread may be
            // descheduled) is evaluated here.
            let deadline = Instant::now() + 4 * self.average + Duration::from_micros(50);
            let mut missing = count - own;
            while missing > 0 && Instant::now() < deadline {
                missing -= self.take_helper_values(values);
                std::hint::spin_loop();
            }
            if missing > 0 {
                // Late: evaluate them here (same values, deterministic).
                let states = self.pending.chunks_exact(words);
                for ((value, packed), _) in values
                    .iter_mut()
                    .zip(states)
                    .zip(&self.has_value)
                    .filter(|(_, taken)| !**taken)
                {
                    *value = evaluate_packed(heuristic, &self.layout, packed, &mut self.fluents);
                    own += 1;
                }
            }
        }
        self.window += started.elapsed();
        self.window_evaluations += own as u64;
        self.pending.clear();
        if self.helper.is_none() && !self.declined && self.evaluations >= self.next_check {
            self.decide_start(heuristic);
        }
        true
    }

    /// Moves the helper's values of the current batch into `values`
    /// (marking them taken); drops values of earlier batches. Returns how
    /// many it took; 0 if the helper holds the lock.
    fn take_helper_values(&mut self, values: &mut [Option<Cost>]) -> usize {
        let mut helper_values = match self.shared.values.try_lock() {
            Ok(v) => v,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => return 0,
        };
        let mut taken = 0;
        for (batch, i, value) in helper_values.drain(..) {
            if batch == self.batch && !self.has_value[i] {
                values[i] = value;
                self.has_value[i] = true;
                taken += 1;
            }
        }
        taken
    }

    /// Starts the helper with a fork of `heuristic` if this thread's
    /// evaluations since the last decision took [`MIN_EVALUATION_TIME`] on
    /// average; otherwise decides again after as many more. While another
    /// search holds the second core, decides again after
    /// [`EVALUATIONS_BEFORE_HELPER`] more (tens of milliseconds), so that
    /// the helper starts soon after that search ends.
    fn decide_start(&mut self, heuristic: &dyn Heuristic) {
        if self
            .second_core_taken
            .is_some_and(|taken| taken.load(Ordering::Acquire))
        {
            self.next_check = self.evaluations + EVALUATIONS_BEFORE_HELPER;
            return;
        }
        let average = self.window / self.window_evaluations.max(1) as u32;
        self.average = average;
        let interval = self.next_check.max(EVALUATIONS_BEFORE_HELPER);
        self.next_check = self.evaluations + interval;
        let slow_enough = average >= MIN_EVALUATION_TIME || self.window_evaluations == 0;
        self.window = Duration::ZERO;
        self.window_evaluations = 0;
        if !slow_enough {
            return;
        }
        let fork = (available_cores() >= 2).then(|| heuristic.fork()).flatten();
        let Some(heuristic) = fork else {
            self.declined = true;
            return;
        };
        let shared = self.shared;
        let layout = self.layout.clone();
        let spawned = thread::Builder::new()
            .name("evaluation".into())
            .spawn_scoped(self.scope, move || help(shared, heuristic, layout));
        self.helper = spawned.ok();
    }
}

impl Drop for ParallelEvaluation<'_, '_> {
    fn drop(&mut self) {
        self.shared.stop.store(true, SeqCst);
        if let Some(helper) = &self.helper {
            helper.thread().unpark();
        }
    }
}

/// The helper thread: claims published states of the current batch and
/// evaluates them, until told to stop.
fn help(shared: &Shared, mut heuristic: Box<dyn Heuristic + Send>, layout: StateLayout) {
    let words = layout.words();
    let mut fluents = Vec::new();
    let mut packed = vec![0; words];
    let mut idle_since = Instant::now();
    let mut spins: u32 = 0;
    while !shared.stop.load(SeqCst) {
        let published = shared.published.0.load(SeqCst);
        let batch = batch_of(published);
        if let Some(i) = shared.claim(batch, index_of(published)) {
            {
                let states = shared.states.lock().unwrap_or_else(PoisonError::into_inner);
                if states.0 != batch {
                    continue; // the search has left the batch
                }
                packed.copy_from_slice(&states.1[i * words..(i + 1) * words]);
            }
            let value = evaluate_packed(heuristic.as_mut(), &layout, &packed, &mut fluents);
            shared
                .values
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push((batch, i, value));
            idle_since = Instant::now();
            continue;
        }
        spins = spins.wrapping_add(1);
        if !spins.is_multiple_of(64) || idle_since.elapsed() < SPIN {
            std::hint::spin_loop();
            continue;
        }
        // Announce the sleep, then look again: a batch opened before the
        // announcement is seen here, one opened after it comes with an
        // unpark (which a later park returns from at once).
        shared.sleeping.store(true, SeqCst);
        if shared.published.0.load(SeqCst) == published && !shared.stop.load(SeqCst) {
            thread::park();
        }
        shared.sleeping.store(false, SeqCst);
        idle_since = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, AtomicUsize};

    use pddl_ground::task::OperatorId;

    use super::*;
    use crate::state::{set_fact, true_facts};
    use crate::testing::TaskBuilder;

    /// A value that depends on the state alone (`None` when fact 0 is
    /// true), computed slowly enough that both threads claim states (a
    /// fork takes `fork_delay`); evaluations are counted in `by_search`
    /// and, by forks, in `by_helper`.
    #[derive(Clone)]
    struct SlowSum {
        by_search: Arc<AtomicU64>,
        by_helper: Arc<AtomicU64>,
        is_fork: bool,
        panics_as_fork: bool,
        fork_delay: Duration,
    }

    impl SlowSum {
        fn new(panics_as_fork: bool, fork_delay: Duration) -> Self {
            SlowSum {
                by_search: Arc::new(AtomicU64::new(0)),
                by_helper: Arc::new(AtomicU64::new(0)),
                is_fork: false,
                panics_as_fork,
                fork_delay,
            }
        }
    }

    impl Heuristic for SlowSum {
        fn evaluate(
            &mut self,
            state: StateView<'_>,
            _: Option<&mut Vec<OperatorId>>,
        ) -> Option<Cost> {
            assert!(!(self.is_fork && self.panics_as_fork), "a broken fork");
            if self.is_fork {
                self.by_helper.fetch_add(1, SeqCst);
                thread::sleep(self.fork_delay);
            } else {
                self.by_search.fetch_add(1, SeqCst);
                thread::sleep(Duration::from_micros(20));
            }
            expected(state.facts)
        }

        fn fork(&self) -> Option<Box<dyn Heuristic + Send>> {
            Some(Box::new(SlowSum {
                is_fork: true,
                ..self.clone()
            }))
        }
    }

    fn expected(facts: &[u64]) -> Option<Cost> {
        let mut sum = 0;
        for f in true_facts(facts) {
            if f == 0 {
                return None;
            }
            sum += Cost::from(f) * Cost::from(f);
        }
        Some(sum)
    }

    /// Packed states, batch by batch.
    type Batches = Vec<Vec<Vec<u64>>>;
    /// Values, batch by batch.
    type Values = Vec<Vec<Option<Cost>>>;

    /// `batches` batches of up to 9 distinct states over 12 facts.
    fn states(batches: usize, layout: &StateLayout) -> Batches {
        let counter = AtomicUsize::new(0);
        (0..batches)
            .map(|b| {
                (0..b % 10)
                    .map(|_| {
                        let n = counter.fetch_add(7, SeqCst);
                        let mut packed = vec![0; layout.words()];
                        for f in 0..12 {
                            set_fact(&mut packed, f, (n >> f) & 1 == 1);
                        }
                        packed
                    })
                    .collect()
            })
            .collect()
    }

    /// Evaluates 300 batches through a [`ParallelEvaluation`] whose helper
    /// may start after `start_after` evaluations: the values and states.
    fn run(heuristic: &mut SlowSum, start_after: u64) -> (Values, Batches) {
        run_beside(heuristic, start_after, None)
    }

    /// [`run`] with `second_core_taken` set until batch `.1`, where it is
    /// cleared.
    fn run_beside(
        heuristic: &mut SlowSum,
        start_after: u64,
        second_core_taken: Option<(&AtomicBool, usize)>,
    ) -> (Values, Batches) {
        let task = TaskBuilder::new(12).build(&[], &[1]);
        let layout = StateLayout::new(&task);
        let batches = states(300, &layout);
        let values = with_parallel_evaluation(
            &layout,
            Some(start_after),
            second_core_taken.map(|(taken, _)| taken),
            heuristic,
            |heuristic, parallel| {
                let parallel = parallel.expect("parallel evaluation with a start_after");
                let mut out = Vec::new();
                for (b, batch) in batches.iter().enumerate() {
                    if let Some((taken, clear_at)) = second_core_taken
                        && b == clear_at
                    {
                        taken.store(false, SeqCst);
                    }
                    for packed in batch {
                        parallel.push(packed);
                    }
                    let mut values = Vec::new();
                    assert!(parallel.evaluate(heuristic, &mut values, &|| false));
                    out.push(values);
                }
                out
            },
        );
        (values, batches)
    }

    fn two_cores() -> bool {
        let two = available_cores() >= 2;
        if !two {
            eprintln!("skipped: one core, so no helper thread");
        }
        two
    }

    fn assert_values(values: &[Vec<Option<Cost>>], batches: &[Vec<Vec<u64>>]) {
        for (values, batch) in values.iter().zip(batches) {
            let wanted: Vec<_> = batch.iter().map(|s| expected(s)).collect();
            assert_eq!(values, &wanted);
        }
        assert!(values.iter().flatten().any(Option::is_none));
    }

    #[test]
    fn both_threads_evaluate_and_values_come_back_in_order() {
        if !two_cores() {
            return;
        }
        let mut heuristic = SlowSum::new(false, Duration::from_micros(20));
        let (values, batches) = run(&mut heuristic, 100);
        assert_values(&values, &batches);
        assert!(
            heuristic.by_helper.load(SeqCst) > 0,
            "the helper evaluated nothing"
        );
    }

    #[test]
    fn the_helper_waits_while_another_search_holds_the_second_core() {
        if !two_cores() {
            return;
        }
        // Taken for the first 200 batches (about 900 evaluations, well
        // past `start_after`), then free: the helper starts later.
        let taken = AtomicBool::new(true);
        let mut heuristic = SlowSum::new(false, Duration::from_micros(20));
        let task = TaskBuilder::new(12).build(&[], &[1]);
        let layout = StateLayout::new(&task);
        let early: usize = states(200, &layout).iter().map(Vec::len).sum();
        assert!(early > 100, "the flag must be set past start_after");
        let (values, batches) = run_beside(&mut heuristic, 100, Some((&taken, 200)));
        assert_values(&values, &batches);
        assert!(
            heuristic.by_helper.load(SeqCst) > 0,
            "the helper never started"
        );
        // Taken throughout: the helper never starts.
        let mut waiting = SlowSum::new(false, Duration::from_micros(20));
        let never = AtomicBool::new(true);
        let (values, batches) = run_beside(&mut waiting, 100, Some((&never, usize::MAX)));
        assert_values(&values, &batches);
        assert_eq!(
            waiting.by_helper.load(SeqCst),
            0,
            "the helper started while the second core was taken"
        );
    }

    #[test]
    fn states_a_slow_helper_holds_are_evaluated_by_the_search() {
        if !two_cores() {
            return;
        }
        // The helper takes 2 ms a state, far past the search's deadline.
        let mut heuristic = SlowSum::new(false, Duration::from_millis(2));
        let (values, batches) = run(&mut heuristic, 0);
        assert_values(&values, &batches);
        let total: u64 = batches.iter().map(|b| b.len() as u64).sum();
        let by_search = heuristic.by_search.load(SeqCst);
        let by_helper = heuristic.by_helper.load(SeqCst);
        assert!(by_helper > 0, "the helper evaluated nothing");
        // The states the helper held were evaluated twice.
        assert!(by_search + by_helper > total);
    }

    #[test]
    fn a_helper_that_panics_ends_the_search_instead_of_hanging() {
        if !two_cores() {
            return;
        }
        let mut heuristic = SlowSum::new(true, Duration::ZERO);
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&mut heuristic, 0)));
        assert!(outcome.is_err());
    }
}
