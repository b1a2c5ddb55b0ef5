function n = count(str, pattern)
% MATLAB's count (R2016b): non-overlapping occurrences of pattern in str.
  if iscell(str)
    n = cellfun(@(s) count(s, pattern), str);
    return;
  end
  n = 0;
  k = 1;
  while k <= numel(str) - numel(pattern) + 1
    if strcmp(str(k:k + numel(pattern) - 1), pattern)
      n = n + 1;
      k = k + numel(pattern);
    else
      k = k + 1;
    end
  end
end
