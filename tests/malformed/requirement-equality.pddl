(define (domain no-equality)
  (:requirements :strips)
  (:predicates (p ?x ?y))
  (:action a
    :parameters (?x ?y)
    :precondition (not (= ?x ?y))
    :effect (p ?x ?y)))
