function total = addUp(values)
% Adds up the values.
total = sum(values);
