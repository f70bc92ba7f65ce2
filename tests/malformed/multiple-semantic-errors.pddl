(define (domain many-errors)
  (:requirements :typing)
  (:types block)
  (:predicates (on ?x - block ?y - block) (clear ?x - block))
  (:action stack
    :parameters (?x - block ?y - blok)
    :precondition (and (clear ?x) (clear ?z) (holding ?x))
    :effect (and (on ?x ?y ?x) (not (clear table)))))
