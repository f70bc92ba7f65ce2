//! Packed states and the state registry.
//!
//! A state is a slice of `u64` words: first the facts, one bit each, then
//! one word per *stored* numeric fluent holding the value's `f64` bits
//! (NaN and -0 are canonicalised so that equal values pack equally). The
//! [`StateRegistry`] stores each distinct state once, contiguously (in
//! fewer words where [`packing`] halves them), and hands out dense
//! [`StateId`]s.
//!
//! Search layouts ([`StateLayout::new`]) leave out the fluents that can
//! never affect which operators apply or whether the goal holds (see
//! [`metric_only_fluents`]): typically cost counters such as `(driven)`
//! or `(fuel-used)` of a metric that could not become operator costs.
//! Storing them would make states that differ only in the path's cost
//! distinct and switch off duplicate detection. Unstored fluents unpack as
//! their initial value; replaying a plan to read the metric needs
//! [`StateLayout::with_all_fluents`].

pub mod packing;

use std::sync::Arc;

use hashbrown::HashTable;
use pddl_ground::Task;
use pddl_ground::task::{Conjunction, FactId, FluentId, NumCondition, NumExpr};

use crate::symmetry::{KeyScratch, Symmetry};
pub use packing::StatePacking;

/// Dense id of a registered state (index into the registry).
pub type StateId = u32;

/// How a task's states are packed into words.
#[derive(Clone, Debug, PartialEq)]
pub struct StateLayout {
    fact_words: usize,
    /// Number of fluents of the task (stored or not).
    fluents: usize,
    /// The fluents stored in the packed state, ascending; `None` when all
    /// are (the common case, unpacked by one copy).
    stored: Option<Vec<FluentId>>,
    /// Per fluent, the value unpacked for unstored ones (the initial value).
    frozen: Vec<f64>,
}

impl StateLayout {
    /// The search layout for a task's facts and fluents: fluents that
    /// only feed the metric are not stored (see [`metric_only_fluents`]).
    pub fn new(task: &Task) -> Self {
        let unstored = metric_only_fluents(task);
        let mut layout = Self::with_all_fluents(task);
        if unstored.iter().any(|&u| u) {
            layout.stored = Some(
                (0..task.fluents.len() as FluentId)
                    .filter(|&f| !unstored[f as usize])
                    .collect(),
            );
        }
        layout
    }

    /// A layout storing every fluent (for replaying plans, where the final
    /// values of metric fluents matter).
    pub fn with_all_fluents(task: &Task) -> Self {
        let fluents = task.fluents.len();
        let mut frozen = task.init_fluents.clone();
        frozen.resize(fluents, f64::NAN);
        StateLayout {
            fact_words: task.facts.len().div_ceil(64),
            fluents,
            stored: None,
            frozen,
        }
    }

    /// Words per packed state.
    pub fn words(&self) -> usize {
        self.fact_words + self.stored_fluents()
    }

    /// Number of fact words at the front of a packed state.
    pub fn fact_words(&self) -> usize {
        self.fact_words
    }

    /// Number of numeric fluents of the task (stored or not).
    pub fn fluents(&self) -> usize {
        self.fluents
    }

    /// Number of fluents stored in a packed state.
    pub fn stored_fluents(&self) -> usize {
        self.stored.as_ref().map_or(self.fluents, Vec::len)
    }

    /// Whether fluent `f` is stored in packed states.
    pub fn is_stored(&self, f: FluentId) -> bool {
        self.stored
            .as_ref()
            .is_none_or(|stored| stored.binary_search(&f).is_ok())
    }

    /// The fact part of a packed state.
    #[inline]
    pub fn facts<'a>(&self, packed: &'a [u64]) -> &'a [u64] {
        &packed[..self.fact_words]
    }

    /// Packs a fluent value (canonicalising NaN and -0).
    #[inline]
    pub fn pack_value(value: f64) -> u64 {
        if value.is_nan() {
            f64::NAN.to_bits()
        } else if value == 0.0 {
            0
        } else {
            value.to_bits()
        }
    }

    /// Copies the fluent values of a packed state into `out` (one per
    /// fluent of the task; unstored ones get their initial value).
    #[inline]
    pub fn unpack_fluents(&self, packed: &[u64], out: &mut Vec<f64>) {
        let words = &packed[self.fact_words..];
        out.clear();
        match &self.stored {
            None => out.extend(words.iter().map(|&w| f64::from_bits(w))),
            Some(stored) => {
                out.extend_from_slice(&self.frozen);
                for (&f, &w) in stored.iter().zip(words) {
                    out[f as usize] = f64::from_bits(w);
                }
            }
        }
    }

    /// Writes fluent values (one per fluent of the task) into a packed
    /// state.
    #[inline]
    pub fn pack_fluents(&self, values: &[f64], packed: &mut [u64]) {
        let words = &mut packed[self.fact_words..];
        match &self.stored {
            None => {
                for (w, &v) in words.iter_mut().zip(values) {
                    *w = Self::pack_value(v);
                }
            }
            Some(stored) => {
                for (w, &f) in words.iter_mut().zip(stored) {
                    *w = Self::pack_value(values.get(f as usize).copied().unwrap_or(f64::NAN));
                }
            }
        }
    }

    /// The packed initial state of a task, before axioms.
    pub fn initial(&self, task: &Task) -> Vec<u64> {
        let mut packed = vec![0u64; self.words()];
        for &f in &task.init_facts {
            if (f as usize) < task.facts.len() {
                set_fact(&mut packed, f, true);
            }
        }
        self.pack_fluents(&self.frozen, &mut packed);
        packed
    }
}

/// Per fluent, whether its value can never matter to search: it occurs
/// in no numeric condition (preconditions, effect conditions, axiom
/// bodies, goal) and in no effect's right-hand side, and its initial value
/// is finite. Such a fluent only accumulates (a metric counter), and the
/// only way it could change applicability, an effect result that is not
/// finite, then depends on the right-hand side alone (`x + v`, `x · v`,
/// `x / v`, `v` are finite for finite `x` exactly when they are for any
/// other finite `x`), short of overflowing past 1.8e308.
pub fn metric_only_fluents(task: &Task) -> Vec<bool> {
    let mut needed = vec![false; task.fluents.len()];
    let mut stack = Vec::new();
    let conjunctions = std::iter::once(&task.goal)
        .chain(task.axioms.iter().map(|ax| &ax.body))
        .chain(task.operators.iter().flat_map(|op| {
            std::iter::once(&op.precondition).chain(op.conditional.iter().map(|ce| &ce.condition))
        }));
    for c in conjunctions {
        for cond in &c.numeric {
            mark_fluents(&cond.lhs, &mut needed, &mut stack);
            mark_fluents(&cond.rhs, &mut needed, &mut stack);
        }
    }
    for op in &task.operators {
        let effects = op
            .numeric
            .iter()
            .chain(op.conditional.iter().flat_map(|ce| &ce.numeric));
        for e in effects {
            mark_fluents(&e.expr, &mut needed, &mut stack);
        }
    }
    needed
        .iter()
        .enumerate()
        .map(|(f, &n)| !n && task.init_fluents.get(f).is_some_and(|v| v.is_finite()))
        .collect()
}

/// Marks the fluents occurring in an expression (with an explicit stack:
/// expression depth is unbounded in the input).
fn mark_fluents<'e>(expr: &'e NumExpr, needed: &mut [bool], stack: &mut Vec<&'e NumExpr>) {
    stack.clear();
    stack.push(expr);
    while let Some(e) = stack.pop() {
        match e {
            NumExpr::Const(_) => {}
            NumExpr::Fluent(f) => {
                if let Some(slot) = needed.get_mut(*f as usize) {
                    *slot = true;
                }
            }
            NumExpr::Neg(a) => stack.push(a),
            NumExpr::Add(a, b) | NumExpr::Sub(a, b) | NumExpr::Mul(a, b) | NumExpr::Div(a, b) => {
                stack.push(a);
                stack.push(b);
            }
        }
    }
}

/// Whether fact `f` is true in the fact words.
#[inline(always)]
pub fn has_fact(facts: &[u64], f: FactId) -> bool {
    facts[(f >> 6) as usize] & (1u64 << (f & 63)) != 0
}

/// The facts set in the fact words, in ascending order.
pub fn true_facts(facts: &[u64]) -> impl Iterator<Item = FactId> + '_ {
    facts.iter().enumerate().flat_map(|(w, &word)| {
        let mut bits = word;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let f = (w * 64) as FactId + bits.trailing_zeros();
                bits &= bits - 1;
                f
            })
        })
    })
}

/// Sets fact `f` in the fact words.
#[inline(always)]
pub fn set_fact(facts: &mut [u64], f: FactId, value: bool) {
    let word = &mut facts[(f >> 6) as usize];
    if value {
        *word |= 1u64 << (f & 63);
    } else {
        *word &= !(1u64 << (f & 63));
    }
}

/// A state as heuristics and goal tests see it.
#[derive(Clone, Copy, Debug)]
pub struct StateView<'a> {
    /// Fact bits.
    pub facts: &'a [u64],
    /// Fluent values (NaN = undefined).
    pub fluents: &'a [f64],
}

impl StateView<'_> {
    /// Whether fact `f` is true.
    #[inline]
    pub fn has(&self, f: FactId) -> bool {
        has_fact(self.facts, f)
    }

    /// Whether every condition of the conjunction holds.
    pub fn satisfies(&self, c: &Conjunction) -> bool {
        self.facts_hold(&c.pos, &c.neg) && self.numeric_hold(&c.numeric)
    }

    /// Whether every fact of `pos` is true and every fact of `neg` false.
    #[inline]
    pub fn facts_hold(&self, pos: &[FactId], neg: &[FactId]) -> bool {
        pos.iter().all(|&f| self.has(f)) && neg.iter().all(|&f| !self.has(f))
    }

    /// Whether every numeric comparison of `numeric` holds.
    #[inline]
    pub fn numeric_hold(&self, numeric: &[NumCondition]) -> bool {
        numeric.iter().all(|n| n.holds(self.fluents))
    }

    /// Number of conditions of the conjunction that do not hold.
    pub fn unsatisfied_count(&self, c: &Conjunction) -> usize {
        c.pos.iter().filter(|&&f| !self.has(f)).count()
            + c.neg.iter().filter(|&&f| self.has(f)).count()
            + c.numeric.iter().filter(|n| !n.holds(self.fluents)).count()
    }
}

/// How the registry stores `state`: packed into `packed` where there is
/// a packing, as it is otherwise.
#[inline]
fn stored_form<'a>(
    packing: Option<&StatePacking>,
    state: &'a [u64],
    packed: &'a mut Vec<u64>,
) -> &'a [u64] {
    match packing {
        None => state,
        Some(packing) => {
            packing.pack(state, packed);
            packed
        }
    }
}

/// Hashes a packed state (FxHash-style word mixing plus a final avalanche
/// so that both the low bits, used for buckets, and the top bits, used as
/// tags, are well distributed).
#[inline]
fn hash_words(words: &[u64]) -> u64 {
    let mut h: u64 = words.len() as u64;
    for &w in words {
        h = (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h
}

/// Stores each distinct packed state once in one contiguous arena.
///
/// With symmetry reduction ([`StateRegistry::for_search`]) states are
/// deduplicated by their [`Symmetry::key`] instead: a state whose orbit
/// is registered gets that orbit's id, and [`StateRegistry::load`] gives
/// the first state registered for it. With a [`StatePacking`], the arena
/// holds the states packed, and [`StateRegistry::load`] unpacks them.
#[derive(Debug)]
pub struct StateRegistry {
    /// Words of a state stored in the arena (packed, with a packing).
    words_per_state: usize,
    len: u32,
    arena: Vec<u64>,
    table: HashTable<StateId>,
    orbits: Option<OrbitKeys>,
    packing: Option<Arc<StatePacking>>,
    /// The state being looked up, packed.
    packed: Vec<u64>,
}

/// The keys of a registry that deduplicates orbits. Only their hashes
/// are kept for every state: a key holds a signature per class object,
/// often many times the words of a (packed) state (Puzznic level 127: 60
/// words against 4), so a candidate's key is computed again from its
/// stored state when its hash matches, unless it is among the keys kept
/// of states inserted or matched lately (a search meets the same states
/// again soon: on gripper prob05 the default computed 11 735 keys for
/// 6 456 lookups, 45 % of them for stored states).
#[derive(Debug)]
struct OrbitKeys {
    symmetry: Arc<Symmetry>,
    /// The hash of every registered state's key, indexed like the arena.
    hashes: Vec<u64>,
    /// The key being looked up.
    key: Vec<u64>,
    /// A registered state's key, to compare with `key`.
    stored_key: Vec<u64>,
    /// A registered state, unpacked.
    unpacked: Vec<u64>,
    scratch: KeyScratch,
    /// Keys of recent states, by id.
    recent_keys: RecentTable,
    /// States looked up lately, exactly as given, by the hash of their
    /// words: a state generated again (lazy search generates most states
    /// many times) is found without computing its key.
    recent_states: RecentTable,
}

/// How many entries a [`RecentTable`] holds at most, and in how many
/// bytes of words at most (Puzznic's keys take hundreds of words,
/// gripper's a few).
const RECENT_SLOTS: usize = 4096;
const RECENT_BYTES: usize = 1 << 20;

/// A direct-mapped table of recent states' words (keys or states) and
/// their ids: slot `s` holds the words `words[s * width..][..width]` of
/// state `ids[s]` (`StateId::MAX`: empty). Slots are found by id
/// ([`RecentTable::by_id`]) or by the hash of the words
/// ([`RecentTable::slot_of`]); a newer entry replaces an older one in its
/// slot.
#[derive(Debug, Default)]
struct RecentTable {
    ids: Vec<StateId>,
    words: Vec<u64>,
}

impl RecentTable {
    /// The most slots for entries of `width` words: a power of two, at
    /// most [`RECENT_SLOTS`] and [`RECENT_BYTES`] of words.
    fn most_slots(width: usize) -> usize {
        let most = (RECENT_BYTES / 8 / width.max(1)).clamp(1, RECENT_SLOTS);
        1 << most.ilog2()
    }

    /// At least `slots` slots for entries of `width` words; the entries
    /// held are dropped when the table grows.
    fn reserve(&mut self, slots: usize, width: usize) {
        if self.ids.len() < slots {
            self.ids.clear();
            self.ids.resize(slots, StateId::MAX);
            self.words.resize(slots * width, 0);
        }
    }

    /// The words in `slot` (entries of `width` words) and whose they are.
    #[inline]
    fn entry(&self, slot: usize, width: usize) -> (StateId, &[u64]) {
        (self.ids[slot], &self.words[slot * width..][..width])
    }

    /// Puts the words of state `id` into `slot`.
    #[inline]
    fn put(&mut self, slot: usize, id: StateId, words: &[u64]) {
        self.ids[slot] = id;
        self.words[slot * words.len()..][..words.len()].copy_from_slice(words);
    }

    /// The words kept for state `id` (entries of `width` words).
    #[inline]
    fn by_id(&self, id: StateId, width: usize) -> Option<&[u64]> {
        if self.ids.is_empty() {
            return None;
        }
        let (held, words) = self.entry(id as usize % self.ids.len(), width);
        (held == id).then_some(words)
    }

    /// Keeps `words` for state `id`, in a table with as many slots as
    /// states so far (so that a small search does not clear a large
    /// table), up to [`RecentTable::most_slots`].
    #[inline]
    fn keep_by_id(&mut self, id: StateId, words: &[u64]) {
        let wanted = (id as usize + 1)
            .next_power_of_two()
            .min(Self::most_slots(words.len()));
        self.reserve(wanted, words.len());
        self.put(id as usize % self.ids.len(), id, words);
    }

    /// The slot of `words` by their hash (the table takes
    /// [`RecentTable::most_slots`] slots at the first use).
    #[inline]
    fn slot_of(&mut self, words: &[u64]) -> usize {
        if self.ids.is_empty() {
            self.reserve(Self::most_slots(words.len()), words.len());
        }
        hash_words(words) as usize & (self.ids.len() - 1)
    }

    /// The state whose words `slot` holds, if they are `words`.
    #[inline]
    fn id_at(&self, slot: usize, words: &[u64]) -> Option<StateId> {
        let (held, kept) = self.entry(slot, words.len());
        (held != StateId::MAX && kept == words).then_some(held)
    }

    /// Bytes of the table.
    fn memory_bytes(&self) -> usize {
        self.ids.capacity() * size_of::<StateId>() + self.words.capacity() * 8
    }
}

impl OrbitKeys {
    /// Whether registered state `id`, stored as `stored` (packed by
    /// `packing`, if any), has the key in `self.key` (whose hash is
    /// `hash`).
    fn stored_has_key(
        &mut self,
        id: StateId,
        stored: &[u64],
        packing: Option<&StatePacking>,
        hash: u64,
    ) -> bool {
        if self.hashes[id as usize] != hash {
            return false;
        }
        if let Some(recent) = self.recent_keys.by_id(id, self.key.len()) {
            return recent == self.key;
        }
        let state = match packing {
            None => stored,
            Some(packing) => {
                packing.unpack(stored, &mut self.unpacked);
                &self.unpacked[..]
            }
        };
        self.symmetry
            .key(state, &mut self.scratch, &mut self.stored_key);
        self.recent_keys.keep_by_id(id, &self.stored_key);
        self.stored_key == self.key
    }
}

/// What [`StateRegistry::lookup`] found.
struct Lookup {
    /// The hash of the state's stored form (or orbit key).
    hash: u64,
    /// Its id, if it is registered.
    found: Option<StateId>,
    /// With symmetry reduction, its slot among the recent states.
    recent_slot: usize,
}

impl StateRegistry {
    /// An empty registry for states of `words_per_state` words.
    pub fn new(words_per_state: usize) -> Self {
        StateRegistry {
            words_per_state,
            len: 0,
            arena: Vec::new(),
            table: HashTable::new(),
            orbits: None,
            packing: None,
            packed: Vec::new(),
        }
    }

    /// An empty registry for states of `words_per_state` words that
    /// treats the states of one orbit of `symmetry` as one state (plain
    /// deduplication when `None`) and stores them packed by `packing`.
    pub fn for_search(
        words_per_state: usize,
        symmetry: Option<Arc<Symmetry>>,
        packing: Option<Arc<StatePacking>>,
    ) -> Self {
        StateRegistry {
            words_per_state: packing
                .as_ref()
                .map_or(words_per_state, |p| p.packed_words(words_per_state)),
            orbits: symmetry.map(|symmetry| OrbitKeys {
                symmetry,
                hashes: Vec::new(),
                key: Vec::new(),
                stored_key: Vec::new(),
                unpacked: Vec::new(),
                scratch: KeyScratch::default(),
                recent_keys: RecentTable::default(),
                recent_states: RecentTable::default(),
            }),
            packing,
            ..Self::new(words_per_state)
        }
    }

    /// Number of registered states.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no state is registered.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether states are deduplicated by orbit.
    pub fn reduces_symmetry(&self) -> bool {
        self.orbits.is_some()
    }

    /// The words of registered state `id` as stored (packed, with a
    /// packing).
    #[inline]
    fn stored(&self, id: StateId) -> &[u64] {
        let w = self.words_per_state;
        &self.arena[id as usize * w..][..w]
    }

    /// Puts registered state `id` (unpacked) into `out`.
    #[inline]
    pub fn load(&self, id: StateId, out: &mut Vec<u64>) {
        match &self.packing {
            None => {
                out.clear();
                out.extend_from_slice(self.stored(id));
            }
            Some(packing) => packing.unpack(self.stored(id), out),
        }
    }

    /// Whether `state` is the registered state `id` or, with symmetry
    /// reduction, in its orbit.
    pub fn is_registered_as(&mut self, id: StateId, state: &[u64]) -> bool {
        match &mut self.orbits {
            None => match &self.packing {
                None => self.stored(id) == state,
                Some(packing) => {
                    packing.pack(state, &mut self.packed);
                    self.stored(id) == self.packed
                }
            },
            Some(orbits) => {
                orbits
                    .symmetry
                    .key(state, &mut orbits.scratch, &mut orbits.key);
                let hash = hash_words(&orbits.key);
                let w = self.words_per_state;
                let stored = &self.arena[id as usize * w..][..w];
                orbits.stored_has_key(id, stored, self.packing.as_deref(), hash)
            }
        }
    }

    /// The id of `state` if it is registered (or, with symmetry
    /// reduction, a state of its orbit is).
    #[inline]
    pub fn find(&mut self, state: &[u64]) -> Option<StateId> {
        self.lookup(state).found
    }

    /// Looks `state` up; with a packing and no symmetry reduction,
    /// `self.packed` then holds its packed form.
    #[inline]
    fn lookup(&mut self, state: &[u64]) -> Lookup {
        let w = self.words_per_state;
        let packing = self.packing.as_deref();
        let arena = &self.arena;
        match &mut self.orbits {
            None => {
                let stored_form = stored_form(packing, state, &mut self.packed);
                let hash = hash_words(stored_form);
                let found = self
                    .table
                    .find(hash, |&id| &arena[id as usize * w..][..w] == stored_form);
                Lookup {
                    hash,
                    found: found.copied(),
                    recent_slot: 0,
                }
            }
            Some(orbits) => {
                let recent_slot = orbits.recent_states.slot_of(state);
                if let Some(id) = orbits.recent_states.id_at(recent_slot, state) {
                    return Lookup {
                        hash: orbits.hashes[id as usize],
                        found: Some(id),
                        recent_slot,
                    };
                }
                orbits
                    .symmetry
                    .key(state, &mut orbits.scratch, &mut orbits.key);
                let hash = hash_words(&orbits.key);
                let found = self.table.find(hash, |&id| {
                    orbits.stored_has_key(id, &arena[id as usize * w..][..w], packing, hash)
                });
                let found = found.copied();
                if let Some(id) = found {
                    orbits.recent_states.put(recent_slot, id, state);
                }
                Lookup {
                    hash,
                    found,
                    recent_slot,
                }
            }
        }
    }

    /// [`StateRegistry::insert`] without symmetry reduction: one probe of
    /// the table finds the state or the slot for it, where a lookup and
    /// then an insertion probed twice for every new state (2 % of blind
    /// A*'s instructions on the 8-puzzle).
    #[inline]
    fn insert_plain(&mut self, state: &[u64]) -> Option<(StateId, bool)> {
        let w = self.words_per_state;
        let stored_form = stored_form(self.packing.as_deref(), state, &mut self.packed);
        let hash = hash_words(stored_form);
        let arena = &self.arena;
        let entry = self.table.entry(
            hash,
            |&id| &arena[id as usize * w..][..w] == stored_form,
            |&id| hash_words(&arena[id as usize * w..][..w]),
        );
        let vacant = match entry {
            hashbrown::hash_table::Entry::Occupied(occupied) => {
                return Some((*occupied.get(), false));
            }
            hashbrown::hash_table::Entry::Vacant(vacant) => vacant,
        };
        if self.len == u32::MAX {
            return None;
        }
        let id = self.len;
        self.len += 1;
        self.arena.extend_from_slice(stored_form);
        vacant.insert(id);
        Some((id, true))
    }

    /// Returns the id of `state`, registering it first if it is new; the
    /// flag tells whether it was new. `None` when the id space (2^32 - 1
    /// states) is exhausted.
    #[inline]
    pub fn insert(&mut self, state: &[u64]) -> Option<(StateId, bool)> {
        if self.orbits.is_none() {
            return self.insert_plain(state);
        }
        let Lookup {
            hash,
            found,
            recent_slot,
        } = self.lookup(state);
        if let Some(id) = found {
            return Some((id, false));
        }
        if self.len == u32::MAX {
            return None;
        }
        let id = self.len;
        self.len += 1;
        let stored = stored_form(self.packing.as_deref(), state, &mut self.packed);
        self.arena.extend_from_slice(stored);
        debug_assert_eq!(self.arena.len(), self.len as usize * self.words_per_state);
        // With symmetry reduction (the plain registry returned above).
        if let Some(orbits) = &mut self.orbits {
            orbits.hashes.push(hash);
            orbits.recent_keys.keep_by_id(id, &orbits.key);
            orbits.recent_states.put(recent_slot, id, state);
            let hashes = &orbits.hashes;
            self.table
                .insert_unique(hash, id, |&id| hashes[id as usize]);
        }
        Some((id, true))
    }

    /// Estimated bytes used by the arena, the keys' hashes and the hash
    /// table. The arena and the hashes count the words they hold, not
    /// their capacity: the capacity reserved for growth (up to as much
    /// again) is not resident until states fill it, and counting it
    /// stopped searches with a quarter of the memory limit unused
    /// (settlers instance-1: 2.99 GB resident under 4 GiB).
    pub fn memory_bytes(&self) -> u64 {
        let keys = self.orbits.as_ref().map_or(0, |o| {
            o.hashes.len() * 8 + o.recent_keys.memory_bytes() + o.recent_states.memory_bytes()
        });
        (self.arena.len() * 8 + keys + self.table.capacity() * 5) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_orbit_keys_are_kept_per_id_and_replaced_on_collision() {
        let mut table = RecentTable::default();
        let recent = |table: &RecentTable, id| table.by_id(id, 2).map(<[u64]>::to_vec);
        assert_eq!(recent(&table, 0), None);
        for id in 0..10 {
            table.keep_by_id(id, &[u64::from(id), 7]);
        }
        // The table grows with the ids (dropping what it held): 16 slots.
        assert_eq!(table.ids.len(), 16);
        assert_eq!(recent(&table, 9), Some(vec![9, 7]));
        assert_eq!(recent(&table, 3), None);
        table.keep_by_id(3, &[3, 7]);
        assert_eq!(recent(&table, 3), Some(vec![3, 7]));
        // Keys so long that the table holds two: ids 0 and 2 share a slot.
        let words = RECENT_BYTES / 8 / 2;
        let mut table = RecentTable::default();
        let long = |v: u64| vec![v; words];
        for id in 0..3 {
            table.keep_by_id(id, &long(u64::from(id)));
        }
        assert_eq!(table.ids.len(), 2);
        assert_eq!(table.by_id(0, words), None);
        assert_eq!(table.by_id(2, words), Some(&long(2)[..]));
        assert_eq!(table.by_id(1, words), Some(&long(1)[..]));
    }

    #[test]
    fn registry_deduplicates() {
        let mut reg = StateRegistry::new(2);
        assert_eq!(reg.insert(&[1, 2]), Some((0, true)));
        assert_eq!(reg.insert(&[1, 3]), Some((1, true)));
        assert_eq!(reg.insert(&[1, 2]), Some((0, false)));
        for i in 0..10_000u64 {
            reg.insert(&[i, i * 7]);
        }
        assert_eq!(reg.insert(&[1, 3]), Some((1, false)));
        let mut state = Vec::new();
        reg.load(1, &mut state);
        assert_eq!(state, [1, 3]);
        // (1,7) and (0,0) were new, (1,2)/(1,3) were not among i*7 pairs except none.
        assert_eq!(reg.len(), 2 + 10_000);
    }

    /// v0 is tested by a precondition, v1 only counts (metric-only), v2
    /// is read by an effect, v3 counts but starts undefined.
    fn counter_task() -> Task {
        use crate::testing::TaskBuilder;
        use pddl_ground::task::{AssignOp, Comparison, NumEffect};
        let mut b = TaskBuilder::new(2);
        let (v0, v1, v2, v3) = (
            b.fluent(5.0),
            b.fluent(0.0),
            b.fluent(1.5),
            b.fluent(f64::NAN),
        );
        let go = b.op("go", &[0], &[1], &[0]);
        b.num_pre(go, v0, Comparison::GreaterEqual, 1.0);
        b.num_effect(go, v0, AssignOp::Decrease, 1.0);
        b.num_effect(go, v1, AssignOp::Increase, 7.0);
        b.num_effect(go, v3, AssignOp::Increase, 1.0);
        let mut task = b.build(&[0], &[1]);
        task.operators[0].numeric.push(NumEffect {
            op: AssignOp::Increase,
            fluent: v1,
            expr: NumExpr::Fluent(v2),
        });
        task
    }

    #[test]
    fn metric_only_fluents_are_not_stored() {
        let task = counter_task();
        assert_eq!(metric_only_fluents(&task), vec![false, true, false, false]);
        let layout = StateLayout::new(&task);
        assert_eq!((layout.fluents(), layout.stored_fluents()), (4, 3));
        assert_eq!(layout.words(), 1 + 3);
        // Round trip: stored values come back exactly, the unstored one as
        // its initial value; -0 and NaN canonicalised.
        let mut packed = layout.initial(&task);
        let mut values = Vec::new();
        layout.unpack_fluents(&packed, &mut values);
        assert_eq!(values[..3], [5.0, 0.0, 1.5]);
        assert!(values[3].is_nan());
        layout.pack_fluents(&[-0.0, 99.0, 0.1 + 0.2, 4.0], &mut packed);
        assert_eq!(packed[1..], [0, (0.1f64 + 0.2).to_bits(), 4.0f64.to_bits()]);
        layout.unpack_fluents(&packed, &mut values);
        assert_eq!(values, vec![0.0, 0.0, 0.1 + 0.2, 4.0]);
        // Two states differing only in the counter pack equally.
        let mut other = packed.clone();
        layout.pack_fluents(&[0.0, 12.0, 0.1 + 0.2, 4.0], &mut other);
        assert_eq!(packed, other);
        // The full layout stores every fluent.
        let full = StateLayout::with_all_fluents(&task);
        assert_eq!(full.words(), 1 + 4);
        let mut packed = full.initial(&task);
        full.pack_fluents(&[1.0, 99.0, 2.0, 3.0], &mut packed);
        full.unpack_fluents(&packed, &mut values);
        assert_eq!(values, vec![1.0, 99.0, 2.0, 3.0]);
    }

    #[test]
    fn a_cost_counter_does_not_make_the_space_infinite() {
        use crate::testing::TaskBuilder;
        use crate::{NoObserver, Outcome, SearchOptions, search};
        use pddl_ground::task::AssignOp;
        use std::sync::atomic::AtomicBool;
        // Facts 0 ⇄ 1, each move adds 1 to a counter; goal fact 2 is
        // unreachable. With the counter stored every move made a new state
        // and breadth-first search never ended; without, two states.
        let mut b = TaskBuilder::new(3);
        let counter = b.fluent(0.0);
        let there = b.op("there", &[0], &[1], &[0]);
        let back = b.op("back", &[1], &[0], &[1]);
        b.num_effect(there, counter, AssignOp::Increase, 1.0);
        b.num_effect(back, counter, AssignOp::Increase, 1.0);
        let task = b.build(&[0], &[2]);
        let options = SearchOptions {
            engine: crate::Engine::BreadthFirst,
            time_limit: Some(std::time::Duration::from_secs(10)),
            ..SearchOptions::satisficing_default()
        };
        let r = search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
        assert_eq!(r.outcome, Outcome::Unsolvable);
        assert_eq!(r.statistics.expanded, 2);
    }

    #[test]
    fn zero_width_states() {
        let mut reg = StateRegistry::new(0);
        assert_eq!(reg.insert(&[]), Some((0, true)));
        assert_eq!(reg.insert(&[]), Some((0, false)));
        assert_eq!(reg.len(), 1);
    }

    #[test]
    fn bits_and_values() {
        let mut w = [0u64; 2];
        set_fact(&mut w, 70, true);
        assert!(has_fact(&w, 70));
        assert!(!has_fact(&w, 6));
        set_fact(&mut w, 70, false);
        assert_eq!(w, [0, 0]);
        assert_eq!(StateLayout::pack_value(-0.0), StateLayout::pack_value(0.0));
        assert_eq!(
            StateLayout::pack_value(f64::NAN),
            StateLayout::pack_value(-f64::NAN)
        );
    }
}
