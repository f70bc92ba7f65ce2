; Puzznic, real-time variant: the turn-based rules of domain.pddl, plus the
; arcade and NES rule that a resting tile may be pushed while other tiles
; are still falling, one push per falling step.
;
; The objects, predicates, problems and physics are those of domain.pddl
; (read its header first); a problem written for one domain works with the
; other, and every turn-based plan is a real-time plan. What this file adds:
; - (resting ?c), derived: the tile at ?c stands on a wall, or on a tile
;   that is itself resting, so no gravity step moves it. On a still board
;   every tile rests; while tiles fall, only those below which nothing can
;   give way do.
; - (unsettled), derived: some tile has an empty cell below, so the next
;   gravity step moves it.
; - (pushed): set by a push, cleared by the next gravity step, so at most
;   one push comes between two gravity steps.
; - A push is allowed on a still board (as in the turn-based rules), or
;   while (falling) holds and some tile is still about to fall. It is not
;   allowed once the tiles have landed and matching is due: like the
;   turn-based rules, matching happens when the whole board is still, and
;   the player acts after it.
; The reference simulator's real-time mode (planner::puzznic::simulator::
; RealTime) implements the same rules; tests/puzznic_crosscheck.rs plays
; random pushes and physics steps through both.
(define (domain puzznic)
  (:requirements :typing :negative-preconditions :existential-preconditions
                 :disjunctive-preconditions :conditional-effects :derived-predicates
                 :action-costs)
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
    (match-pending)
    (pushed)
    (resting ?c - cell)
    (unsettled)
    (may-push))
  (:functions (total-cost) - number)

  (:derived (resting ?c - cell)
    (or (not (exists (?d - cell) (below ?c ?d)))
        (exists (?d - cell) (and (below ?c ?d) (not (empty ?d)) (resting ?d)))))

  (:derived (unsettled)
    (exists (?t - tile ?c - cell ?d - cell)
      (and (below ?c ?d) (at ?t ?c) (empty ?d))))

  (:derived (may-push)
    (and (not (pushed))
         (or (and (not (falling)) (not (match-pending)))
             (and (falling) (unsettled)))))

  ; The player pushes the resting tile ?t at ?from one cell left into ?to.
  (:action push-left
    :parameters (?from - cell ?to - cell ?t - tile)
    :precondition (and (may-push) (right-of ?to ?from) (at ?t ?from) (resting ?from)
                       (empty ?to))
    :effect (and (not (at ?t ?from)) (empty ?from)
                 (at ?t ?to) (not (empty ?to))
                 (falling) (pushed)
                 (increase (total-cost) 1)))

  ; The player pushes the resting tile ?t at ?from one cell right into ?to.
  (:action push-right
    :parameters (?from - cell ?to - cell ?t - tile)
    :precondition (and (may-push) (right-of ?from ?to) (at ?t ?from) (resting ?from)
                       (empty ?to))
    :effect (and (not (at ?t ?from)) (empty ?from)
                 (at ?t ?to) (not (empty ?to))
                 (falling) (pushed)
                 (increase (total-cost) 1)))

  ; As in domain.pddl, and it ends the step in which a push was allowed.
  (:action gravity-step
    :parameters ()
    :precondition (falling)
    :effect (and
      (not (falling))
      (not (pushed))
      (match-pending)
      (forall (?t - tile ?c - cell ?d - cell)
        (when (and (below ?c ?d) (at ?t ?c) (empty ?d))
              (and (not (at ?t ?c)) (empty ?c) (at ?t ?d) (not (empty ?d)) (falling))))))

  ; As in domain.pddl.
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
      (forall (?s - triple-tile ?t - triple-tile ?u - triple-tile ?b - cell)
        (when (and (same-kind ?s ?t) (same-kind ?t ?u) (same-kind ?s ?u) (at ?t ?b)
                   (exists (?a - cell) (and (adjacent ?a ?b) (at ?s ?a)))
                   (exists (?c - cell) (and (adjacent ?b ?c) (at ?u ?c))))
              (and (gone ?s) (gone ?t) (gone ?u))))))
)
