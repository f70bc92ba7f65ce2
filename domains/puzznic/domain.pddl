; Puzznic, turn-based rules of ../shared/puzznic/README.md (beside the repository).
; (realtime.pddl beside this file is the real-time variant; it reads the
; same problems.)
;
; Encoding (chosen so that the delete relaxation sees what matching needs,
; the ground task stays small and the physics is forced):
; - Cells of the playfield are objects; walls and outside cells are simply
;   absent, so "resting on a wall" is the absence of a `below` fact.
;   Adjacency is static: (right-of ?a ?b) means ?b is the cell right of ?a,
;   (below ?a ?b) means ?b is the cell directly below ?a.
; - Every tile is an object of its own: (at ?t ?c) places it, (empty ?c)
;   marks a free cell, (gone ?t) says it has vanished as part of a way to
;   clear the level, and the static (same-kind ?s ?t) holds for two
;   DISTINCT tiles of one type (both orders); (adjacent ?a ?b) is static
;   orthogonal adjacency, both orders. A tile vanishes only next to another
;   tile of its kind, so in the delete relaxation, where a tile once pushed
;   is "at" every cell it passed, it still cannot match itself: relaxed
;   plans must bring two tiles together, and a kind reduced to one tile
;   makes its `gone` goals unreachable, so relaxation heuristics see that
;   dead end. The goal is one (gone ?t) per tile, so goal counting counts
;   the tiles left.
; - A kind with exactly three tiles clears only if all three vanish in one
;   step (a pair would leave a single tile). Its tiles have the subtype
;   `triple-tile`; all others are `pair-tile`. Such a tile vanishing in a
;   pair is removed from the board exactly as the rules say, but does NOT
;   become (gone): only a chain of three same-kind tiles (which every group
;   of three contains) marks them gone. So the relaxation must bring all
;   three together, and a split triple is an unreachable goal at once.
;   The board, moves and physics are exactly those of the plain rules, and
;   the goal holds exactly when the board is cleared, so the plans are too.
; - Odd kinds of five or more tiles also need some group of three or more,
;   but marking that (tried: a per-kind goal set by a chain of three)
;   slowed the search more than it guided it, so they are plain pair tiles.
; - Phases make the physics deterministic. A push sets (falling). While
;   (falling), the only applicable action is `gravity-step`, which moves
;   every tile with an empty cell below down by one cell, all at once
;   (a stack falls together, its upper tiles one step behind), and keeps
;   (falling) exactly when some tile moved, so a final step that moves
;   nothing confirms the board is still; it always sets (match-pending).
;   When nothing falls any more, `vanish` (needs (match-pending), not
;   (falling)) removes every tile orthogonally adjacent to a tile of its
;   kind, all at once, and sets (falling) again if anything vanished (chain
;   reactions). A `vanish` that removes nothing leaves neither phase fact:
;   the board is still and only then are the player's pushes applicable.
;   The initial state has (falling) so that a level is settled before the
;   first move.
; - Metric: the number of player moves; gravity and vanishing cost 0.
(define (domain puzznic)
  (:requirements :typing :negative-preconditions :existential-preconditions :conditional-effects :action-costs)
  (:types cell tile - object pair-tile triple-tile - tile)
  (:predicates
    (right-of ?a - cell ?b - cell)
    (below ?a - cell ?b - cell)
    (adjacent ?a - cell ?b - cell)
    (same-kind ?s - tile ?t - tile)
    (at ?t - tile ?c - cell)
    (empty ?c - cell)
    (gone ?t - tile)
    (falling)
    (match-pending))
  (:functions (total-cost) - number)

  ; The player pushes the resting tile ?t at ?from one cell left into ?to.
  (:action push-left
    :parameters (?from - cell ?to - cell ?t - tile)
    :precondition (and (not (falling)) (not (match-pending))
                       (right-of ?to ?from) (at ?t ?from) (empty ?to))
    :effect (and (not (at ?t ?from)) (empty ?from)
                 (at ?t ?to) (not (empty ?to))
                 (falling)
                 (increase (total-cost) 1)))

  ; The player pushes the resting tile ?t at ?from one cell right into ?to.
  (:action push-right
    :parameters (?from - cell ?to - cell ?t - tile)
    :precondition (and (not (falling)) (not (match-pending))
                       (right-of ?from ?to) (at ?t ?from) (empty ?to))
    :effect (and (not (at ?t ?from)) (empty ?from)
                 (at ?t ?to) (not (empty ?to))
                 (falling)
                 (increase (total-cost) 1)))

  ; Every tile with an empty cell below moves down one cell, simultaneously.
  ; A cell is never both the source and the target of a fall in one step
  ; (sources hold a tile, targets are empty), so the effects cannot clash.
  ; (falling) stays exactly when some tile moved: the last step of a fall
  ; moves nothing and confirms that the board is still. (Predicting the
  ; end one step earlier needs case analysis over stacks with gaps, which
  ; is easy to get wrong for no real gain.)
  (:action gravity-step
    :parameters ()
    :precondition (falling)
    :effect (and
      (not (falling))
      (match-pending)
      (forall (?t - tile ?c - cell ?d - cell)
        (when (and (below ?c ?d) (at ?t ?c) (empty ?d))
              (and (not (at ?t ?c)) (empty ?c) (at ?t ?d) (not (empty ?d)) (falling))))))

  ; On a still board, every tile next to another tile of its kind vanishes,
  ; all groups at once; if any did, gravity runs again (chain reactions).
  ; Each effect removes one tile ?s that has a same-kind neighbour ?t; a
  ; tile with several neighbours is removed by several effects, which
  ; agree. (The two effects of one adjacent pair have the same condition;
  ; the grounder makes them one.) A triple tile becomes (gone) only
  ; through the last effect.
  (:action vanish
    :parameters ()
    :precondition (and (match-pending) (not (falling)))
    :effect (and
      (not (match-pending))
      (forall (?s - pair-tile ?t - tile ?a - cell ?b - cell)
        (when (and (same-kind ?s ?t) (adjacent ?a ?b) (at ?s ?a) (at ?t ?b))
              (and (not (at ?s ?a)) (empty ?a) (gone ?s) (falling))))
      (forall (?s - triple-tile ?t - tile ?a - cell ?b - cell)
        (when (and (same-kind ?s ?t) (adjacent ?a ?b) (at ?s ?a) (at ?t ?b))
              (and (not (at ?s ?a)) (empty ?a) (falling))))
      ; Three tiles of a three-tile kind in a chain ?s - ?t - ?u: all of
      ; the kind vanish together, which is how such a kind clears.
      (forall (?s - triple-tile ?t - triple-tile ?u - triple-tile ?b - cell)
        (when (and (same-kind ?s ?t) (same-kind ?t ?u) (same-kind ?s ?u) (at ?t ?b)
                   (exists (?a - cell) (and (adjacent ?a ?b) (at ?s ?a)))
                   (exists (?c - cell) (and (adjacent ?b ?c) (at ?u ?c))))
              (and (gone ?s) (gone ?t) (gone ?u))))))
)
