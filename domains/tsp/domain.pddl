;; Travelling salesman with action costs.
;;
;; Visit every city once and return to the start. (at ?c) the salesman is
;; in ?c, (visited ?c) ?c has been entered, (home ?c) ?c is where the tour
;; starts and ends (static; the home city is visited from the start).
;; `drive` enters an unvisited city; `return` goes home once every city
;; is visited. Keeping home closed until then means no state is a dead
;; end, which a delete-relaxation heuristic could not see.
;; Driving from ?from to ?to costs the static numeric value
;; (road-length ?from ?to), given in the problem for every ordered pair of
;; distinct cities (so a road always joins two distinct cities, which the
;; inequalities make explicit), and the metric minimises the total cost:
;; the optimum is the shortest tour.
;; Problems: `plan generate tsp --cities N --seed S`.
(define (domain tsp)
  (:requirements :typing :negative-preconditions :equality
                 :universal-preconditions :action-costs)
  (:types city)
  (:predicates
    (at ?c - city)
    (visited ?c - city)
    (home ?c - city))
  (:functions
    (road-length ?from ?to - city) - number
    (total-cost) - number)

  (:action drive
    :parameters (?from ?to - city)
    :precondition (and (at ?from) (not (visited ?to)) (not (= ?from ?to)))
    :effect (and (at ?to) (visited ?to) (not (at ?from))
                 (increase (total-cost) (road-length ?from ?to))))

  (:action return
    :parameters (?from ?to - city)
    :precondition (and (at ?from) (home ?to) (not (= ?from ?to))
                       (forall (?c - city) (visited ?c)))
    :effect (and (at ?to) (not (at ?from))
                 (increase (total-cost) (road-length ?from ?to)))))
