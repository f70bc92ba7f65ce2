; Feature-dense task for tests/semantics_agree.rs: parameters that may
; name the same object, so that one step deletes and adds the same atom
; (the add wins) or updates the same fluent twice (no step: such an
; operator is dropped, and one whose conditional effect does it, `tick`
; once `flag` holds, cannot be applied);
; constants in effects, and a conditional effect whose condition the
; step's own unconditional effects change (conditions see the state
; before the step).
(define (domain aliasing)
  (:requirements :typing :negative-preconditions :conditional-effects :numeric-fluents)
  (:types spot)
  (:constants base - spot)
  (:predicates (at ?s - spot) (marked ?s - spot) (flag))
  (:functions (visits ?s - spot) (moves))
  (:action go
    :parameters (?from ?to - spot)
    :precondition (at ?from)
    :effect (and (not (at ?from)) (at ?to)
                 (increase (visits ?from) 1) (increase (visits ?to) 2)
                 (increase (moves) 1)
                 (when (at ?to) (marked ?to))
                 (when (marked ?from) (not (marked ?from)))))
  (:action toggle
    :parameters (?s - spot)
    :precondition (and (at ?s) (not (marked base)))
    :effect (and (flag) (marked base)
                 (when (flag) (and (not (flag)) (marked ?s)))))
  (:action tick
    :parameters ()
    :effect (and (increase (moves) 1) (when (flag) (increase (moves) 10))))
  (:action reset
    :parameters (?s ?t - spot)
    :precondition (and (marked ?s) (marked ?t))
    :effect (and (not (marked ?s)) (marked ?t) (not (marked base)))))
