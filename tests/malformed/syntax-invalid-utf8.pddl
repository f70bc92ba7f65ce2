(define (domain bad-bytes)
  (:predicates (café))
  (:action a :effect (café)))
