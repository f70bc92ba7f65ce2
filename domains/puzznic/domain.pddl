; Puzznic, turn-based rules of /work/shared/puzznic/README.md.
;
; Encoding (chosen so that it grounds small and the physics is forced):
; - Cells of the playfield are objects; walls and outside cells are simply
;   absent, so "resting on a wall" is the absence of a `below` fact.
;   Adjacency is static: (right-of ?a ?b) means ?b is the cell right of ?a,
;   (below ?a ?b) means ?b is the cell directly below ?a.
; - A tile is identified by its type at a cell, (has ?cell ?kind), and a
;   free cell by (empty ?cell): facts are cells x kinds, never combinations
;   of tile positions, and the goal "no tile left" is one (empty ?c) per
;   cell, which gives goal-counting heuristics something to count.
; - Phases make the physics deterministic. A push sets (falling). While
;   (falling), the only applicable action is `gravity-step`, which moves
;   every tile with an empty cell below down by one cell, all at once
;   (a stack falls together, its upper tiles one step behind), and keeps
;   (falling) exactly when some tile moved, so a final step that moves
;   nothing confirms the board is still; it always sets (match-pending). When nothing falls any more, `vanish` (needs
;   (match-pending), not (falling)) removes every tile orthogonally
;   adjacent to a tile of its type, all at once, and sets (falling) again if
;   anything vanished (chain reactions). A `vanish` that removes nothing
;   leaves neither phase fact: the board is still and only then are the
;   player's pushes applicable. The initial state has (falling) so that a
;   level is settled before the first move.
; - Metric: the number of player moves; gravity and vanishing cost 0.
(define (domain puzznic)
  (:requirements :typing :negative-preconditions :conditional-effects :action-costs)
  (:types cell kind)
  (:predicates
    (right-of ?a - cell ?b - cell)
    (below ?a - cell ?b - cell)
    (has ?c - cell ?k - kind)
    (empty ?c - cell)
    (falling)
    (match-pending))
  (:functions (total-cost) - number)

  ; The player pushes the resting tile at ?from one cell left into ?to.
  (:action push-left
    :parameters (?from - cell ?to - cell ?k - kind)
    :precondition (and (not (falling)) (not (match-pending))
                       (right-of ?to ?from) (has ?from ?k) (empty ?to))
    :effect (and (not (has ?from ?k)) (empty ?from)
                 (has ?to ?k) (not (empty ?to))
                 (falling)
                 (increase (total-cost) 1)))

  ; The player pushes the resting tile at ?from one cell right into ?to.
  (:action push-right
    :parameters (?from - cell ?to - cell ?k - kind)
    :precondition (and (not (falling)) (not (match-pending))
                       (right-of ?from ?to) (has ?from ?k) (empty ?to))
    :effect (and (not (has ?from ?k)) (empty ?from)
                 (has ?to ?k) (not (empty ?to))
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
      (forall (?c - cell ?d - cell ?k - kind)
        (when (and (below ?c ?d) (has ?c ?k) (empty ?d))
              (and (not (has ?c ?k)) (empty ?c) (has ?d ?k) (not (empty ?d)) (falling))))))

  ; On a still board, every tile next to a tile of its kind vanishes, all
  ; groups at once; if any did, gravity runs again (chain reactions).
  (:action vanish
    :parameters ()
    :precondition (and (match-pending) (not (falling)))
    :effect (and
      (not (match-pending))
      (forall (?a - cell ?b - cell ?k - kind)
        (when (and (right-of ?a ?b) (has ?a ?k) (has ?b ?k))
              (and (not (has ?a ?k)) (empty ?a) (not (has ?b ?k)) (empty ?b) (falling))))
      (forall (?a - cell ?b - cell ?k - kind)
        (when (and (below ?a ?b) (has ?a ?k) (has ?b ?k))
              (and (not (has ?a ?k)) (empty ?a) (not (has ?b ?k)) (empty ?b) (falling))))))
)
