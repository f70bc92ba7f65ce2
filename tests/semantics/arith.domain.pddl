; Feature-dense task for tests/semantics_agree.rs: right-hand sides that
; read the fluent they change (evaluated before the step), assigns that
; swap values, conditional effects on numbers and on atoms the same step
; adds unconditionally (the add wins), a precondition with imply, and a
; goal that is numeric and implicative only.
(define (domain arith)
  (:requirements :adl :numeric-fluents)
  (:types counter)
  (:predicates (even ?c - counter) (frozen ?c - counter) (armed))
  (:functions (value ?c - counter) (steps))
  (:action double
    :parameters (?c - counter)
    :precondition (and (not (frozen ?c)) (< (value ?c) 100))
    :effect (and (increase (value ?c) (value ?c)) (even ?c) (increase (steps) 1)
                 (when (> (value ?c) 10) (not (even ?c)))))
  (:action shift
    :parameters (?a ?b - counter)
    :precondition (and (not (= ?a ?b)) (imply (armed) (even ?a)))
    :effect (and (assign (value ?a) (value ?b)) (assign (value ?b) (- (value ?a) 1))
                 (when (even ?b) (and (not (even ?b)) (frozen ?b)))
                 (armed)))
  (:action thaw
    :parameters (?c - counter)
    :precondition (frozen ?c)
    :effect (and (not (frozen ?c)) (not (armed)) (scale-down (value ?c) 2))))
