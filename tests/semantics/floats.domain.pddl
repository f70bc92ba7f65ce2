; Feature-dense task for tests/semantics_agree.rs: fractions that binary
; floating point cannot hold exactly, compared with `=`, `<=` and `>=`;
; two conditional assigns of one fluent whose conditions can hold at
; once (then the step is no step); decrease below zero and scale by a
; fluent.
(define (domain floats)
  (:requirements :adl :numeric-fluents)
  (:predicates (done) (hot) (cold))
  (:functions (x) (y) (k))
  (:action add-tenth :parameters () :precondition (< (x) 1)
    :effect (and (increase (x) 0.1) (when (= (x) 0.3) (hot))))
  (:action add-fifth :parameters () :precondition (<= (x) (- 1 0.2))
    :effect (increase (x) 0.2))
  (:action settle :parameters ()
    :precondition (and (>= (x) 0.6) (not (done)))
    :effect (and (done)
                 (when (hot) (assign (y) (* (x) 3)))
                 (when (>= (x) 0.7) (assign (y) (- (x) 1)))))
  (:action drain :parameters () :precondition (done)
    :effect (and (decrease (y) (* (k) 0.7)) (scale-up (k) (x))
                 (when (< (y) 0) (cold)))))
