function out = scrabbleScore(mine, theirs)
% ----- written by T. Student -----
  myTotal = 0;
  % loop over the values
  for k = 1:length(mine)
  myTotal = myTotal + mine(k);
end
  theirTotal = 0;
  % loop over the values
  for k = 1:length(theirs)
  theirTotal = theirTotal + theirs(k);
end
  if myTotal > theirTotal
  out = 'I am the Scrabble champion!';
  elseif myTotal < theirTotal
  out = 'Beginner''s luck...';
  else
  out = 'I challenge you to a rematch!';
end

