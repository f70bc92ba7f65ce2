(define (domain several-syntax-errors)
  (:requirements :strips :no-such-requirement)
  (:predicates (p) (q))
  (:action a
    :precondition (and (p) 12)
    :effect (q))
  (:action b
    :precondition (p)
    :effect (and (q) (not)))
  (:action c :effect (p)))
