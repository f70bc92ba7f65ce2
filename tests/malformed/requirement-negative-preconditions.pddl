(define (domain no-negative)
  (:requirements :strips :equality)
  (:predicates (p ?x) (q ?x))
  (:action a
    :parameters (?x ?y)
    :precondition (and (not (= ?x ?y)) (not (p ?x)) (not (q ?y)))
    :effect (p ?x)))
